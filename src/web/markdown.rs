//! Problem statements (`statement.md`) to HTML with pulldown-cmark. Raw HTML in the Markdown
//! is shown as text, never made live, and links or images with a scheme other than http(s),
//! mailto or none (`javascript:`...) lose their target: a statement cannot run script in a
//! contestant's browser even if its author wanted it to.

use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

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
}
