-- Roster groups (issue 26): a user's group links them to the contests whose file lists
-- "group:NAME" among its participants.
CREATE TABLE user_groups (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    grp     TEXT    NOT NULL
);
CREATE INDEX user_groups_grp ON user_groups (grp);

-- A board shows its users' display names and every member of its groups: a user added, or
-- put in a group, moves every contest's version, so no board computed before is served
-- again (the contest services make a contest's row before its first board).
CREATE TRIGGER user_added_moves_boards AFTER INSERT ON users
BEGIN
    UPDATE contest_state SET version = version + 1;
END;

CREATE TRIGGER user_grouped_moves_boards AFTER INSERT ON user_groups
BEGIN
    UPDATE contest_state SET version = version + 1;
END;

CREATE TRIGGER user_regrouped_moves_boards AFTER UPDATE ON user_groups
BEGIN
    UPDATE contest_state SET version = version + 1;
END;
