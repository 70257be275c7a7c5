-- Issue 48 item 6 (decision 0078). The audit trail made tamper-evident: a sealing job links every
-- entry, one after another, into audit_chain, each link carrying the hash of the link before it
-- and the hash of its entry's content (`npm run audit:verify` recomputes the chain). The entries
-- are written by the hold statements at drop-day rates from several processes, so they are not
-- chained as they are written (that would serialise every hold on one chain head): a job seals
-- them shortly after, in its own transaction, one sealer at a time (an advisory lock).
--
-- audit_chain is insert-only like audit_entries: the runtime role gets SELECT and INSERT only
-- (db/roles.ts) and the triggers below refuse UPDATE, DELETE and TRUNCATE even to an owner that
-- has not disabled them.
CREATE TABLE "audit_chain" (
  -- 1, 2, 3, ... in sealing order; a missing number is a link removed.
  "link" bigint PRIMARY KEY NOT NULL,
  "entry_id" uuid NOT NULL UNIQUE,
  "entry_seq" bigint NOT NULL UNIQUE,
  -- 32 zero bytes for link 1.
  "prev_hash" bytea NOT NULL CHECK (octet_length("prev_hash") = 32),
  -- sha256(prev_hash || the entry's canonical text), audit-chain.ts.
  "hash" bytea NOT NULL CHECK (octet_length("hash") = 32),
  "sealed_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE FUNCTION "audit_chain_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_chain is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_chain_no_update" BEFORE UPDATE ON "audit_chain" FOR EACH ROW EXECUTE FUNCTION "audit_chain_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_chain_no_delete" BEFORE DELETE ON "audit_chain" FOR EACH ROW EXECUTE FUNCTION "audit_chain_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_chain_no_truncate" BEFORE TRUNCATE ON "audit_chain" FOR EACH STATEMENT EXECUTE FUNCTION "audit_chain_append_only"();--> statement-breakpoint
-- The sealer looks for entries past the chain's newest by seq. A BRIN index costs the hold
-- statements next to nothing (seq grows with the table's pages; a new page range is only
-- summarised later), unlike a btree that every hold would write.
CREATE INDEX "audit_entries_seq_brin" ON "audit_entries" USING brin ("seq") WITH (autosummarize = on);
