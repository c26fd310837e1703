-- Staff roles (docs/behaviour.md §6, "Staff roles"): each grant now says what its person may do.
-- Every grant made before this is an 'owner', so nobody loses anything they could do; a grant
-- inserted by hand with only a uid (the spec's admins/{uid}) is an owner too.
ALTER TABLE admins ADD COLUMN role text NOT NULL DEFAULT 'owner'
  CHECK (role IN ('owner', 'manager', 'leasing-agent', 'viewer'));
