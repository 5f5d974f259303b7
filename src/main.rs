//! The `sudojudge` command line: parses arguments and calls the library.

mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", one_line(&err));
            ExitCode::from(commands::EXIT_ERROR)
        }
    }
}

/// The error and its causes on one line, each said once: a library error whose message
/// already quotes its cause (`cannot listen on X: Address already in use`) does not get the
/// cause appended a second time.
fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::one_line;
    use anyhow::Context;

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::from(std::io::ErrorKind::AddrInUse);
        let err = Err::<(), _>(io)
            .context(format!(
                "cannot listen on x: {}",
                std::io::ErrorKind::AddrInUse
            ))
            .context("starting the daemon")
            .unwrap_err();
        assert_eq!(
            one_line(&err),
            "starting the daemon: cannot listen on x: address in use"
        );
    }
}
