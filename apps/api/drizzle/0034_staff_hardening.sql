-- Reserved for issue 48's hold and closure fixes (2026-12-01), which needed no schema change. Kept
-- (a no-op) because databases have applied it under this name.
SELECT 1;
