-- The hold's own conditional UPDATE (claimSlot in apps/api/src/modules/reservations/
-- reservations.repository.ts), one per transaction, on a random one of the race's sessions.
\set n random(1, 300)
update slots set hold_reservation_id = gen_random_uuid(), hold_expires_at = now() + interval '10 minutes'
where id = (select slot_id from bench_race_slots where n = :n) and kind = 'session' and not blocked and booking_id is null
  and start_at >= now() + interval '60 minutes'
  and (hold_expires_at is null or hold_expires_at <= now());
