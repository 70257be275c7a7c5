-- When a location's sessions go on sale (the season file's local salesOpenAt, as an instant); null: on sale already.
ALTER TABLE "locations" ADD COLUMN "sales_open_at" timestamptz;
