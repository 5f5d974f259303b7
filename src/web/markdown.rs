//! Problem statements (`statement.md`) to HTML with pulldown-cmark. Raw HTML in the Markdown
//! is shown as text, never made live, and links or images with a scheme other than http(s),
//! mailto or none (`javascript:`...) lose their target: a statement cannot run script in a
//! contestant's browser even if its author wanted it to.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// [`render`] of a loaded problem's statement, rendered once per distinct statement text and
/// shared after: statements do not change while a daemon runs, and rendering one on every
/// page view cost more than the rest of the page. The cache is keyed by the text itself (two
/// daemons in one process may load different statements under one problem id) and holds
/// only statements of loaded packages, never anything a request sends.
pub fn render_statement(markdown: &str) -> Arc<str> {
    static RENDERED: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    let cache = RENDERED.get_or_init(Default::default);
    if let Some(html) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(markdown)
    {
        return Arc::clone(html);
    }
    let html: Arc<str> = Arc::from(render(markdown));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(markdown.to_string())
        .or_insert(html)
        .clone()
}

/// The HTML of a statement, without its leading top-level heading (the page shows the
/// problem's title itself).
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut in_title = false;
    let mut first = true;
    let events = Parser::new_ext(markdown, options).filter(move |event| {
        let starts_title = first
            && matches!(event, Event::Start(Tag::Heading { level, .. }) if *level == HeadingLevel::H1);
        first = false;
        if starts_title {
            in_title = true;
        }
        let keep = !in_title;
        if in_title && matches!(event, Event::End(TagEnd::Heading(_))) {
            in_title = false;
        }
        keep
    });
    let events = events.map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// `url` when its scheme is harmless (none, http, https, mailto), else `#`.
fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let scheme = url
        .split_once(':')
        .map(|(s, _)| s)
        .filter(|s| !s.contains(['/', '?', '#']));
    match scheme.map(|s| s.trim().to_ascii_lowercase()) {
        None => url,
        Some(s) if matches!(s.as_str(), "http" | "https" | "mailto") => url,
        Some(_) => CowStr::Borrowed("#"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_text_and_bad_links_are_dropped() {
        let md = "# T\n\n<script>alert(1)</script>\n\nA <b onclick=x>b</b> \
                  [x](javascript:alert(1)) [y](https://ok.example/) [z](/rel#a)\n\n```\n1 2\n```\n";
        let out = render(md);
        assert!(!out.contains("<h1>"), "the title is the page's: {out}");
        assert!(render("Intro\n\n# Later\n").contains("<h1>Later</h1>"));
        assert!(!out.contains("<script"), "{out}");
        assert!(
            out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{out}"
        );
        assert!(out.contains("&lt;b onclick=x&gt;"), "{out}");
        assert!(!out.contains("javascript:"), "{out}");
        assert!(out.contains("href=\"https://ok.example/\""));
        assert!(out.contains("href=\"/rel#a\""));
        assert!(out.contains("<pre><code>1 2\n</code></pre>"), "{out}");
        assert!(!render("[a](JaVaScRiPt:x)").contains("JaVa"));
    }

    #[test]
    fn a_statement_is_rendered_once_and_each_text_apart() {
        let a = render_statement("# A\n\nfirst *statement*\n");
        let again = render_statement("# A\n\nfirst *statement*\n");
        assert!(
            Arc::ptr_eq(&a, &again),
            "the second view reuses the first render"
        );
        assert_eq!(&*a, render("# A\n\nfirst *statement*\n"));
        let other = render_statement("# A\n\nanother one\n");
        assert!(other.contains("another one") && !other.contains("first"));
    }
}
