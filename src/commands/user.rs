//! `sudojudge user add|import|list|disable|enable|password|token`: accounts, on the same database as
//! `serve` (and while it runs: SQLite WAL; the daemon's lock file is not taken).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use sudojudge::accounts::{password, roster, Role, Token, UserName};
use sudojudge::config::Config;
use sudojudge::store::{
    AccountStore, GroupStore, Lease, Location, NewUser, Store, StoreError, StoreNode, TokenKind,
};

/// Arguments of `sudojudge user`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// SQLite database file or PostgreSQL URL (overrides the config), as for `serve`.
    #[arg(long, global = true)]
    pub database: Option<PathBuf>,
    #[command(subcommand)]
    pub action: Action,
}

/// What to do with accounts.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Create a user; prints a generated password once (unless --password-stdin).
    Add {
        /// User name: 1-32 of a-z 0-9 _ - . starting with a letter or digit.
        name: String,
        /// Make the user an admin (default: contestant).
        #[arg(long)]
        admin: bool,
        /// Name shown to people (default: none).
        #[arg(long)]
        display_name: Option<String>,
        /// Read the password from the first line of stdin instead of generating one.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Create contestants from a CSV of `name,display name,group` rows (display name and
    /// group optional; a first row starting with `name` is a header; a group links the users
    /// to contests listing `"group:NAME"`); writes `name,display_name,password` to --output.
    /// All or nothing.
    Import {
        /// The roster CSV.
        roster: PathBuf,
        /// Where the passwords go (default: ROSTER with `.passwords.csv`); created 0600.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// List every user: name, role, state, creation time, roster group and display name.
    List {
        /// One JSON array instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Disable a user: no login, and every token of theirs stops working at once.
    Disable {
        /// User name.
        name: String,
    },
    /// Enable a disabled user again (old tokens stay revoked).
    Enable {
        /// User name.
        name: String,
    },
    /// Give a user a new password (printed once, unless --password-stdin); every session and
    /// token of theirs stops working at once.
    Password {
        /// User name.
        name: String,
        /// Read the password from the first line of stdin instead of generating one.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Print a new API token for a user (shown once; lasts until revoked).
    Token {
        /// User name.
        name: String,
    },
}

/// Runs `sudojudge user ...`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let mut config = Config::load(config).context("loading the configuration")?;
    if let Some(database) = args.database {
        config.server.database = database;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let location = Location::parse(&config.server.database);
        let store = Store::open(&location, Lease::default())
            .await
            .with_context(|| format!("opening {}", location.display()))?;
        match args.action {
            Action::Add {
                name,
                admin,
                display_name,
                password_stdin,
            } => add(&store, &name, admin, display_name, password_stdin).await,
            Action::Import { roster, output } => import(&store, &roster, output).await,
            Action::List { json } => list(&store, json).await,
            Action::Disable { name } => set_disabled(&store, &name, true).await,
            Action::Enable { name } => set_disabled(&store, &name, false).await,
            Action::Password {
                name,
                password_stdin,
            } => set_password(&store, &name, password_stdin).await,
            Action::Token { name } => token(&store, &name).await,
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

fn display_name(text: Option<String>) -> anyhow::Result<String> {
    Ok(roster::display_name(text.as_deref())?)
}

fn duplicate_or(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::DuplicateUser(name) => {
            anyhow::anyhow!("user {name:?} already exists; nothing was written")
        }
        other => anyhow::Error::new(other),
    }
}

async fn add(
    store: &Store,
    name: &str,
    admin: bool,
    display: Option<String>,
    password_stdin: bool,
) -> anyhow::Result<()> {
    let name = UserName::parse(name)?;
    let display_name = display_name(display)?;
    let (password, generated) = new_password(password_stdin)?;
    let role = if admin { Role::Admin } else { Role::Contestant };
    let password_hash = password::hash(&password)?;
    store
        .add_users(&[NewUser {
            name: name.clone(),
            display_name,
            role,
            password_hash,
        }])
        .await
        .map_err(duplicate_or)?;
    eprintln!("created {} {name}", role.as_str());
    if generated {
        // The only time this password is shown.
        println!("{password}");
    }
    Ok(())
}

/// A password read from stdin's first line (checked) or generated; whether it was generated.
fn new_password(from_stdin: bool) -> anyhow::Result<(String, bool)> {
    if !from_stdin {
        return Ok((password::generate(), true));
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("reading the password from stdin")?;
    let line = line.trim_end_matches(['\n', '\r']).to_string();
    password::check_strength(&line)?;
    Ok((line, false))
}

async fn set_password(store: &Store, name: &str, password_stdin: bool) -> anyhow::Result<()> {
    let name = UserName::parse(name)?;
    let (password, generated) = new_password(password_stdin)?;
    let hash = password::hash(&password)?;
    if !store.set_password(&name, &hash).await? {
        bail!("no user {name}; nothing was changed");
    }
    eprintln!("new password for {name} (every session and token of theirs is revoked)");
    if generated {
        // The only time this password is shown.
        println!("{password}");
    }
    Ok(())
}

fn read_roster(path: &Path) -> anyhow::Result<Vec<roster::RosterRow>> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    roster::parse(file).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn passwords_path(roster: &Path) -> PathBuf {
    let stem = roster.file_stem().unwrap_or_default().to_string_lossy();
    roster.with_file_name(format!("{stem}.passwords.csv"))
}

async fn import(store: &Store, roster: &Path, output: Option<PathBuf>) -> anyhow::Result<()> {
    let rows = read_roster(roster)?;
    let output = output.unwrap_or_else(|| passwords_path(roster));
    let made = roster::with_passwords(rows)?;
    let groups: Vec<(String, String)> = made
        .iter()
        .filter_map(|m| Some((m.row.name.to_string(), m.row.group.clone()?)))
        .collect();
    let mut users = Vec::with_capacity(made.len());
    let mut lines = csv::Writer::from_writer(Vec::new());
    lines.write_record(["name", "display_name", "password"])?;
    for m in made {
        lines.write_record([m.row.name.as_str(), &m.row.display_name, &m.password])?;
        users.push(NewUser {
            password_hash: m.password_hash,
            name: m.row.name,
            display_name: m.row.display_name,
            role: roster::ROSTER_ROLE,
        });
    }
    let text = lines.into_inner().context("writing the passwords CSV")?;
    // The passwords are written (owner-only) before the users exist and moved in place after,
    // so neither a failed import nor a failed write leaves accounts nobody has a password of.
    let tmp = output.with_extension("csv.tmp");
    write_private(&tmp, &text)?;
    if let Err(e) = store.add_users(&users).await {
        let _ = std::fs::remove_file(&tmp);
        return Err(duplicate_or(e));
    }
    if !groups.is_empty() {
        if let Err(e) = store.set_groups(&groups).await {
            // The users exist: their passwords must still reach the host.
            let _ = std::fs::rename(&tmp, &output);
            return Err(anyhow::anyhow!(
                "the users were created (passwords in {}) but not put in their groups: {e}",
                output.display()
            ));
        }
    }
    std::fs::rename(&tmp, &output)
        .with_context(|| format!("moving {} to {}", tmp.display(), output.display()))?;
    eprintln!(
        "created {} contestant(s); their passwords are in {}",
        users.len(),
        output.display()
    );
    Ok(())
}

fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}

async fn list(store: &Store, json: bool) -> anyhow::Result<()> {
    let users = store.list_users().await?;
    let groups = store.all_groups().await?;
    let group = |name: &UserName| groups.get(name.as_str()).map(String::as_str);
    if json {
        let out: Vec<serde_json::Value> = users
            .iter()
            .map(|u| {
                serde_json::json!({
                    "name": u.name.as_str(), "display_name": u.display_name,
                    "role": u.role.as_str(), "disabled": u.disabled, "created_at": u.created_at,
                    "group": group(&u.name),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{:<32} {:<10} {:<8} {:<24} {:<16} display name",
        "name", "role", "state", "created", "group"
    );
    for u in users {
        let state = if u.disabled { "disabled" } else { "active" };
        println!(
            "{:<32} {:<10} {:<8} {:<24} {:<16} {}",
            u.name.as_str(),
            u.role.as_str(),
            state,
            u.created_at,
            group(&u.name).unwrap_or("-"),
            u.display_name
        );
    }
    Ok(())
}

async fn set_disabled(store: &Store, name: &str, disabled: bool) -> anyhow::Result<()> {
    let name = UserName::parse(name)?;
    if !store.set_disabled(&name, disabled).await? {
        bail!("no user {name}");
    }
    eprintln!(
        "{} {name}",
        if disabled {
            "disabled (every token of theirs is revoked)"
        } else {
            "enabled"
        }
    );
    Ok(())
}

async fn token(store: &Store, name: &str) -> anyhow::Result<()> {
    let name = UserName::parse(name)?;
    let user = match store.credentials(&name).await? {
        Some(c) if !c.user.disabled => c.user,
        Some(_) => bail!("user {name} is disabled; enable them first"),
        None => bail!("no user {name}"),
    };
    let token = Token::generate();
    store
        .add_token(user.id, &token.hash(), TokenKind::Api, None)
        .await?;
    eprintln!("a new API token for {name} (shown once; send it as Authorization: Bearer)");
    println!("{}", token.reveal());
    Ok(())
}
