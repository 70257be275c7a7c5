-- Reserved for issue 54, wallet passes and SMS (2026-12-02): replace with its statements, or delete it and its journal entry
-- if unused before it lands.
SELECT 1;
