-- Roster groups (issue 26): a user's group links them to the contests whose file lists
-- "group:NAME" among its participants.
CREATE TABLE user_groups (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    grp     TEXT   NOT NULL
);
CREATE INDEX user_groups_grp ON user_groups (grp);

-- A board shows its users' display names and every member of its groups: a user added, or
-- put in a group, moves every contest's version, so no board computed before is served
-- again (the contest services make a contest's row before its first board).
CREATE FUNCTION sj_users_move_boards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE contest_state SET version = version + 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER user_added_moves_boards AFTER INSERT ON users
FOR EACH STATEMENT EXECUTE FUNCTION sj_users_move_boards();

CREATE TRIGGER user_grouped_moves_boards AFTER INSERT OR UPDATE ON user_groups
FOR EACH STATEMENT EXECUTE FUNCTION sj_users_move_boards();
