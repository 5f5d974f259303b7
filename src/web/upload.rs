//! The submit form: a language (or "guess") and a source pasted or uploaded, read from a
//! multipart body. The body was already read whole and bounded by the server's body reader
//! (`server/body.rs`: 2 x `max_source_kib` + 64 KiB, 413 past it); here at most
//! `MAX_FIELDS` fields are read and every field is size-checked before it is kept.

use std::path::Path;

use axum::extract::Multipart;

use crate::languages::LanguageTable;

/// Fields read before the form is refused (the form has four).
const MAX_FIELDS: usize = 16;
/// Longest language id or file name kept.
const MAX_NAME_BYTES: usize = 255;

/// What the submit form sent, before the judge's own checks (known language, size, blank).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubmitForm {
    /// The language chosen, or guessed from the file's extension.
    pub language: Option<String>,
    /// The source (the uploaded file's, when one was chosen, else the pasted text).
    pub source: String,
}

/// Reads the form; `Err` says what is wrong in words for the page.
pub async fn read(
    mut form: Multipart,
    languages: &LanguageTable,
    max_source_bytes: usize,
) -> Result<SubmitForm, String> {
    let mut chosen: Option<String> = None;
    let mut pasted = String::new();
    let mut file: Option<(String, Vec<u8>)> = None;
    for _ in 0..MAX_FIELDS {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err(format!("the form could not be read: {e}")),
        };
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field
            .bytes()
            .await
            .map_err(|e| format!("the form could not be read: {e}"))?;
        if bytes.len() > max_source_bytes {
            return Err(format!(
                "the {} is {} bytes; the limit is {} KiB",
                if name == "file" { "file" } else { "source" },
                bytes.len(),
                max_source_bytes / 1024
            ));
        }
        match name.as_str() {
            "language" if bytes.len() <= MAX_NAME_BYTES => {
                let l = String::from_utf8_lossy(&bytes).trim().to_string();
                chosen = Some(l).filter(|l| !l.is_empty() && l != "auto");
            }
            "source" => {
                pasted = String::from_utf8(bytes.to_vec())
                    .map_err(|_| "the pasted source is not UTF-8 text".to_string())?;
            }
            "file" if !bytes.is_empty() => {
                let file_name = file_name.unwrap_or_default();
                file = Some((
                    file_name.chars().take(MAX_NAME_BYTES).collect(),
                    bytes.to_vec(),
                ));
            }
            _ => {}
        }
    }
    let (source, file_name) = match file {
        Some((name, bytes)) => (
            String::from_utf8(bytes).map_err(|_| format!("the file {name:?} is not UTF-8 text"))?,
            Some(name),
        ),
        None => (pasted, None),
    };
    let language = chosen.or_else(|| {
        file_name
            .as_deref()
            .and_then(|n| languages.guess(Path::new(n)))
            .map(|l| l.id.clone())
    });
    Ok(SubmitForm { language, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::extract::{FromRequest, Request};

    fn form(parts: &[(&str, Option<&str>, &str)]) -> Multipart {
        let mut body = String::new();
        for (name, file, value) in parts {
            body.push_str("--B\r\nContent-Disposition: form-data; name=\"");
            body.push_str(name);
            body.push('"');
            if let Some(f) = file {
                body.push_str(&format!("; filename=\"{f}\""));
            }
            body.push_str("\r\n\r\n");
            body.push_str(value);
            body.push_str("\r\n");
        }
        body.push_str("--B--\r\n");
        let req = Request::builder()
            .method("POST")
            .header("content-type", "multipart/form-data; boundary=B")
            .body(Body::from(body))
            .unwrap();
        futures_block(Multipart::from_request(req, &())).unwrap()
    }

    fn futures_block<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    fn table() -> LanguageTable {
        LanguageTable::from_config(&crate::config::Config::embedded().unwrap())
    }

    #[test]
    fn a_file_wins_and_its_extension_chooses_the_language() {
        let t = table();
        let f = form(&[
            ("csrf", None, "x"),
            ("language", None, "auto"),
            ("file", Some("sol.CPP"), "int main(){}"),
            ("source", None, "ignored"),
        ]);
        let got = futures_block(read(f, &t, 1000)).unwrap();
        assert_eq!(got.language.as_deref(), Some("cpp17"));
        assert_eq!(got.source, "int main(){}");
        let f = form(&[
            ("language", None, "python"),
            ("source", None, "print(1)"),
            ("file", Some(""), ""),
        ]);
        let got = futures_block(read(f, &t, 1000)).unwrap();
        assert_eq!(
            (got.language.as_deref(), got.source.as_str()),
            (Some("python"), "print(1)")
        );
        let f = form(&[("language", None, "auto"), ("source", None, "x")]);
        assert_eq!(futures_block(read(f, &t, 1000)).unwrap().language, None);
        let f = form(&[("source", None, &"x".repeat(20))]);
        assert!(futures_block(read(f, &t, 10))
            .unwrap_err()
            .contains("limit"));
    }
}
