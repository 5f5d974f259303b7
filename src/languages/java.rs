//! The entry point of a Java source, found as Kattis and DOMjudge find it: the class with
//! `public static void main`, and the file named after the public top-level class (javac
//! refuses a public class in a file of another name).
//!
//! A light lexer, not a parser: comments, strings, text blocks and character literals are
//! skipped, braces are counted, and `class`/`interface`/`enum`/`record` followed by a name
//! at depth 0 opens a top-level type.

/// Where a Java source starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaEntry {
    /// The source's file stem: the public top-level type, else the main class.
    pub file_stem: String,
    /// The class to run, with its package (`pkg.Main`).
    pub main_class: String,
}

/// Largest source read (the compile's own limit refuses more anyway).
const MAX_SOURCE: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Punct(char),
}

/// The entry of `source`, or why there is none (shown as a compile error).
pub fn entry(source: &str) -> Result<JavaEntry, String> {
    if source.len() > MAX_SOURCE {
        return Err("the source is too large".into());
    }
    let tokens = lex(source);
    let package = package_of(&tokens);
    let mut depth = 0usize;
    // (name, public, has main) of each top-level type, in order.
    let mut types: Vec<(String, bool, bool)> = Vec::new();
    let mut current: Option<usize> = None;
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    current = None;
                }
            }
            Token::Word(w) if depth == 0 && is_type_keyword(w) => {
                if let Some(Token::Word(name)) = tokens.get(i + 1) {
                    let public = modifiers_before(&tokens, i).any(|m| m == "public");
                    types.push((name.clone(), public, false));
                    current = Some(types.len() - 1);
                }
            }
            Token::Word(w) if depth == 1 && w == "main" => {
                if let Some(k) = current {
                    if is_static_void_main(&tokens, i) {
                        types[k].2 = true;
                    }
                }
            }
            _ => {}
        }
    }
    let public = types.iter().find(|t| t.1).map(|t| t.0.clone());
    let main = types
        .iter()
        .filter(|t| t.2)
        .min_by_key(|t| !t.1)
        .map(|t| t.0.clone())
        .ok_or("no class has a `public static void main(String[] args)` method")?;
    let file_stem = public.unwrap_or_else(|| main.clone());
    for name in [&file_stem, &main] {
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        {
            return Err(format!("the class name {name:?} is not plain ASCII"));
        }
    }
    let main_class = match package {
        Some(p) => format!("{p}.{main}"),
        None => main,
    };
    Ok(JavaEntry {
        file_stem,
        main_class,
    })
}

fn is_type_keyword(w: &str) -> bool {
    matches!(w, "class" | "interface" | "enum" | "record")
}

/// The modifier words just before token `i` (`public final class`).
fn modifiers_before(tokens: &[Token], i: usize) -> impl Iterator<Item = &str> {
    tokens[..i].iter().rev().map_while(|t| match t {
        Token::Word(w)
            if matches!(
                w.as_str(),
                "public" | "final" | "abstract" | "static" | "strictfp" | "sealed"
            ) =>
        {
            Some(w.as_str())
        }
        _ => None,
    })
}

/// Whether `main` at token `i` is `... static ... void main (`.
fn is_static_void_main(tokens: &[Token], i: usize) -> bool {
    if tokens.get(i + 1) != Some(&Token::Punct('(')) {
        return false;
    }
    if i == 0 || tokens[i - 1] != Token::Word("void".into()) {
        return false;
    }
    let mods: Vec<&str> = modifiers_before(tokens, i - 1).collect();
    mods.contains(&"static") && mods.contains(&"public")
}

/// `package a.b;` at the top, as `a.b`.
fn package_of(tokens: &[Token]) -> Option<String> {
    let start = tokens
        .iter()
        .position(|t| *t == Token::Word("package".into()))?;
    let mut name = String::new();
    for t in &tokens[start + 1..] {
        match t {
            Token::Word(w) => name.push_str(w),
            Token::Punct('.') => name.push('.'),
            _ => break,
        }
    }
    (!name.is_empty()).then_some(name)
}

fn lex(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' && next == Some('"') && chars.get(i + 2) == Some(&'"') {
            i += 3;
            while i < chars.len() && !chars[i..].starts_with(&['"', '"', '"']) {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 3;
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            if !c.is_whitespace() {
                tokens.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> (String, String) {
        let e = entry(src).unwrap();
        (e.file_stem, e.main_class)
    }

    #[test]
    fn the_public_class_names_the_file_and_holds_main() {
        let src = "import java.util.*;\npublic class Hello {\n  public static void main(String[] a) { System.out.println(\"class X {\"); }\n}\n";
        assert_eq!(ok(src), ("Hello".into(), "Hello".into()));
    }

    #[test]
    fn main_in_a_package_private_class_beside_a_public_one() {
        let src = "class Helper { int f() { return 1; } }\nclass Sol { public static void main(String... a) {} }\n";
        assert_eq!(ok(src), ("Sol".into(), "Sol".into()));
        let src = "public class Data {}\nclass Run { public static void main(String[] a) {} }";
        assert_eq!(ok(src), ("Data".into(), "Run".into()));
    }

    #[test]
    fn comments_strings_and_nested_classes_do_not_count() {
        let src = "// public class Fake { public static void main(String[] a) {} }\n\
                   /* class Other { public static void main(String[] a){} } */\n\
                   public final class Real {\n  static class Inner { public static void main(String[] a) {} }\n\
                   char c = '{'; String s = \"}\"; String t = \"\"\"\n }}} \"\"\";\n\
                   public static void main(String[] args) {}\n}\n";
        assert_eq!(ok(src), ("Real".into(), "Real".into()));
    }

    #[test]
    fn a_package_qualifies_the_main_class() {
        let src = "package kattis.sol;\npublic class A { public static void main(String[] a) {} }";
        assert_eq!(ok(src), ("A".into(), "kattis.sol.A".into()));
    }

    #[test]
    fn no_main_is_an_error() {
        assert!(entry("public class A { void main(String[] a) {} }").is_err());
        assert!(entry("public class A { static void main(String[] a) {} }").is_err());
        assert!(entry("").is_err());
    }
}
