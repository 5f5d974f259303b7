//! Roles: an admin hosts (sees and rejudges everything, manages users); a contestant takes
//! part (sees only their own work).

use super::AccountError;

/// What a user is allowed to be.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Host: sees and rejudges every submission, sees full checker messages.
    Admin,
    /// Participant: submits, and sees their own submissions only.
    Contestant,
}

impl Role {
    /// The name stored in the database and shown by the API and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Contestant => "contestant",
        }
    }

    /// Parses a stored or typed role name.
    pub fn parse(s: &str) -> Result<Role, AccountError> {
        match s {
            "admin" => Ok(Role::Admin),
            "contestant" => Ok(Role::Contestant),
            other => Err(AccountError::BadRole(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in [Role::Admin, Role::Contestant] {
            assert_eq!(Role::parse(r.as_str()).unwrap(), r);
        }
        assert!(Role::parse("root").is_err());
    }
}
