-- The support desk finds a phone however it was typed (issue 34): "0412 345 678", "+61412345678"
-- and "(04) 1234-5678" are the same digits. A trigram index on the phone's digits serves the arm.
CREATE INDEX IF NOT EXISTS "users_phone_digits_trgm_idx" ON "users" USING gin ((regexp_replace(coalesce("phone", ''), '[^0-9]', '', 'g')) gin_trgm_ops);
