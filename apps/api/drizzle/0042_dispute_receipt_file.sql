-- Issue 56: the tax invoice sent to Stripe as a dispute's `receipt` (a File upload), made once per dispute.
ALTER TABLE "disputes" ADD COLUMN IF NOT EXISTS "receipt_file_id" text;
