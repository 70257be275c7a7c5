/**
 * `npm run bench:photos`: issue 39's processing bench. A set uploads BENCH_PHOTOS camera photos of
 * BENCH_PHOTO_WIDTH × BENCH_PHOTO_HEIGHT (200 of 6000 × 4000 for the issue) to one built API
 * process, the way the staff app sends a sequence: requests of BENCH_PHOTOS_PER_REQUEST files, one
 * after another. Measured in the same run:
 * - photos per second through the API against the same processing alone (processPhoto: rotate,
 *   strip, re-encode, 1600 px preview with the watermark, same sharp settings and two slots) in this
 *   process, no HTTP, storage or database, run before and after the upload (budget: at least 70%);
 * - the API process's peak resident memory (VmHWM);
 * - available-slots p99 while it processes, an open-loop probe of BENCH_PROBE_RPS reads a second
 *   from a family, in its own process, each timed from when it was due (budget: under 50 ms).
 * Writes bench/reports/photos.md and .json.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { processPhoto } from '../../apps/api/src/modules/photos/photo-processing';

/** The API's default PHOTO_MAX_PIXELS (apps/api/src/config/config.ts): the bench's camera files are far below it. */
const MAX_PIXELS = 60_000_000;
import { startBenchDatabase } from '../drop-day/bench-database';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { appCheckToken, createCustomers, upcomingDates } from '../drop-day/seed-data';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 200);
const WIDTH = Number(process.env.BENCH_PHOTO_WIDTH ?? 6000);
const HEIGHT = Number(process.env.BENCH_PHOTO_HEIGHT ?? 4000);
const PER_REQUEST = Number(process.env.BENCH_PHOTOS_PER_REQUEST ?? 20);
/** Photos processed alone for the baseline, before and after the upload. */
const BASELINE = Number(process.env.BENCH_BASELINE_PHOTOS ?? Math.max(4, Math.round(PHOTOS / 10)));
const PROBE_RPS = Number(process.env.BENCH_PROBE_RPS ?? 20);
// BENCH_PORT_OFFSET moves every port, so a second run (another worktree) does not collide with this one.
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const PORTS = { postgres: 4320 + OFFSET, api: 4330 + OFFSET, deadStripe: 4398 + OFFSET, deadSmtp: 4399 + OFFSET };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
/** Another build to compare (`node build.mjs dist/before/start.mjs` in apps/api, as bench:ab does). */
const API_SCRIPT = process.env.BENCH_API_SCRIPT ?? 'dist/start.mjs';
const REPORTS = path.join(REPO_ROOT, 'bench/reports');
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const status = (pid: number, key: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`${key}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Camera-like JPEGs: noise compresses like a real scene does (a flat colour would be a few kB). */
async function cameraPhotos(): Promise<Buffer[]> {
  return Promise.all(
    [60, 110, 160].map((mean) =>
      sharp({
        create: {
          width: WIDTH,
          height: HEIGHT,
          channels: 3,
          background: { r: mean, g: mean, b: mean },
          noise: { type: 'gaussian', mean, sigma: 40 },
        },
      })
        .jpeg({ quality: 90 })
        .withMetadata({ exif: { IFD0: { Make: 'Canon', Model: 'EOS R6' }, IFD2: { BodySerialNumber: '123456789' } } })
        .toBuffer(),
    ),
  );
}

/** CPU seconds (user + system) a process has used: where the time goes, beside the wall clock's rates. */
const cpuOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // clock ticks (USER_HZ, 100 on Linux)
};

/** processPhoto alone, as many at once as the API allows itself: photos per second, and CPU seconds per photo. */
const aloneCpu: number[] = [];
async function baselineRate(files: Buffer[]): Promise<number> {
  const t0 = performance.now();
  const c0 = cpuOf(process.pid);
  await Promise.all(
    Array.from({ length: BASELINE }, (_, i) => processPhoto(files[i % files.length]!, 'Kringle', MAX_PIXELS)),
  );
  aloneCpu.push((cpuOf(process.pid) - c0) / BASELINE);
  return BASELINE / ((performance.now() - t0) / 1000);
}

/**
 * The body as its parts, sent one after another: concatenating 300 MB first blocked this process
 * for a moment before every request, and the probe's reads in flight then counted that against the API.
 */
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'read-probe.ts');

/**
 * read-probe.ts in its own process: started, then stopped with a line, answering every read's latency (ms) from when it
 * was due.
 */
function startProbe(url: string, headers: Record<string, string>) {
  const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [PROBE], {
    env: { ...process.env, PROBE_URL: url, PROBE_HEADERS: JSON.stringify(headers), PROBE_RPS: String(PROBE_RPS) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    ready: lines.next(),
    kill: () => child.kill(),
    async stop(): Promise<number[]> {
      child.stdin!.end('stop\n');
      const { value } = await lines.next();
      const answer = JSON.parse(value as string) as { latencies: number[]; failure: string | null };
      if (answer.failure) throw new Error(`the read probe: ${answer.failure}`);
      return answer.latencies;
    },
  };
}

function multipart(files: Buffer[]) {
  const boundary = `----kringle${randomUUID()}`;
  const chunks: Buffer[] = [];
  files.forEach((data, i) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; ` +
          `filename="IMG_${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    );
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  async function* body() {
    yield* chunks;
  }
  return {
    body,
    length: chunks.reduce((n, c) => n + c.length, 0),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const files = await cameraPhotos();
console.log(
  `${PHOTOS} photos of ${WIDTH} × ${HEIGHT} (${(files[0]!.length / 1024 / 1024).toFixed(1)} MB each), ` +
    `${PER_REQUEST} per request`,
);
const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'photos',
  PORTS.postgres,
);
try {
  const target = season.targets[0]!;
  const [family] = await createCustomers(db, idTokens, 1, 'photos');
  const elfId = randomUUID();
  await db.execute(sql`
    insert into users (id, email, password_hash, first_name, last_name, email_verified_at, is_staff, staff_role)
    values (${elfId}::uuid, 'elf@bench.kringle.test', 'not-a-real-hash', 'Buddy', 'Elf', now(), true, 'set')`);
  const elfClaims = {
    id: elfId,
    email: 'elf@bench.kringle.test',
    emailVerified: true,
    isStaff: true,
    staffRole: 'set' as const,
  };
  const elf = `Bearer ${(await idTokens.issue(elfClaims)).idToken}`;
  const slot = (
    await db.execute(
      sql`select id from slots where location_id =
${target.locationId}::uuid and slot_type_id = ${target.slotTypeId}::uuid and kind = 'session' order by start_at limit
  1`,
    )
  ).rows[0]!;
  const bookingId = randomUUID();
  await db.execute(sql`
    insert into bookings (id, reference, user_id, location_id, slot_id, slot_type_id, status, items, amount_cents,
    confirmed_at)
    values (${bookingId}::uuid, 'KR-BENCH', ${family!.id}::uuid, ${target.locationId}::uuid,
    ${slot.id as string}::uuid, ${target.slotTypeId}::uuid, 'completed', '[]'::jsonb, 0, now())`);
  await endPool();

  const env = {
    ...benchApiEnv({
      databaseUrl,
      jwtKey,
      publicUrl: `http://127.0.0.1:${PORTS.api}`,
      deadStripePort: PORTS.deadStripe,
      deadSmtpPort: PORTS.deadSmtp,
    }),
    DATA_DIR: path.join(tmp, 'data'),
    // Only to compare with a build that paced the body by processing (decision 0070): it answered 408 past 30 s on a
    // loaded host.
    ...(process.env.BENCH_REQUEST_TIMEOUT_MS ? { REQUEST_TIMEOUT_MS: process.env.BENCH_REQUEST_TIMEOUT_MS } : {}),
  };
  const api = await startProcesses({
    name: 'api',
    script: API_SCRIPT,
    cwd: API_DIR,
    ports: [PORTS.api],
    env,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  try {
    const base = `http://127.0.0.1:${PORTS.api}`;
    const appCheck = await appCheckToken(base);
    const pid = api.pids[0]!;
    const rssBefore = status(pid, 'VmRSS');
    const readUrl =
      `${base}/api/v1/booking-slot/${target.locationId}/available-slots?date=` +
      `${upcomingDates(target.timezone, 7)[2]}&slotTypeId=${target.slotTypeId}&filter=all`;
    const read = async () => {
      const t0 = performance.now();
      const res = await fetch(readUrl, { headers: { authorization: family!.authorization, 'x-app-check': appCheck } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`available slots answered ${res.status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 20; i++) await read(); // warm up

    const before = await baselineRate(files);
    // The probe: open loop, so a slow answer does not slow the asking; in its own process.
    const probe = startProbe(readUrl, { authorization: family!.authorization, 'x-app-check': appCheck });
    await probe.ready;
    const t0 = performance.now();
    const apiCpu0 = cpuOf(pid);
    const benchCpu0 = cpuOf(process.pid);
    let sent = 0;
    try {
      while (sent < PHOTOS) {
        const batch = Array.from(
          { length: Math.min(PER_REQUEST, PHOTOS - sent) },
          (_, i) => files[(sent + i) % files.length]!,
        );
        const { body, length, contentType } = multipart(batch);
        const res = await fetch(`${base}/api/v1/staff/bookings/${bookingId}/photos`, {
          method: 'POST',
          body: body() as unknown as BodyInit,
          duplex: 'half',
          headers: {
            authorization: elf,
            'x-app-check': appCheck,
            'content-type': contentType,
            'content-length': String(length),
          },
        } as RequestInit);
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        sent += batch.length;
      }
    } catch (e) {
      probe.kill();
      throw e;
    }
    const seconds = (performance.now() - t0) / 1000;
    const apiCpuPerPhoto = (cpuOf(pid) - apiCpu0) / PHOTOS;
    const benchCpuPerPhoto = (cpuOf(process.pid) - benchCpu0) / PHOTOS;
    const latencies = (await probe.stop()).sort((a, b) => a - b);
    const peakMiB = status(pid, 'VmHWM');
    const after = await baselineRate(files);

    const rate = PHOTOS / seconds;
    const alone = (before + after) / 2;
    const p99 = quantile(latencies, 0.99);
    const result = {
      at: new Date().toISOString(),
      photos: PHOTOS,
      size: `${WIDTH}x${HEIGHT}`,
      fileMiB: Number((files[0]!.length / 1024 / 1024).toFixed(1)),
      perRequest: PER_REQUEST,
      seconds: Number(seconds.toFixed(1)),
      photosPerSecond: Number(rate.toFixed(2)),
      aloneBefore: Number(before.toFixed(2)),
      aloneAfter: Number(after.toFixed(2)),
      share: Number((rate / alone).toFixed(3)),
      cpuSecondsPerPhoto: {
        api: Number(apiCpuPerPhoto.toFixed(3)),
        alone: Number(((aloneCpu[0]! + aloneCpu[1]!) / 2).toFixed(3)),
        benchSending: Number(benchCpuPerPhoto.toFixed(3)),
      },
      rssBeforeMiB: Math.round(rssBefore),
      peakMiB: Math.round(peakMiB),
      probe: {
        reads: latencies.length,
        p50: Number(quantile(latencies, 0.5).toFixed(1)),
        p99: Number(p99.toFixed(1)),
        max: Number(latencies.at(-1)!.toFixed(1)),
      },
    };
    const budgets = [
      [
        result.share >= 0.7,
        `photos per second at least 70% of the processing alone: ` +
          `${(result.share * 100).toFixed(1)}% (${result.photosPerSecond}/s over ${alone.toFixed(2)}/s)`,
      ],
      [
        p99 < 50,
        `available-slots p99 under 50 ms while processing: ${result.probe.p99} ms (${latencies.length} reads)`,
      ],
    ] as const;
    console.log(
      `upload: ${PHOTOS} photos in ${result.seconds} s = ${result.photosPerSecond}/s; alone ${result.aloneBefore}/s ` +
        `before, ${result.aloneAfter}/s after`,
    );
    console.log(
      `CPU per photo: API ${result.cpuSecondsPerPhoto.api} s, alone ${result.cpuSecondsPerPhoto.alone} s; the ` +
        `bench's ` +
        `own sending and probe ${result.cpuSecondsPerPhoto.benchSending} s`,
    );
    console.log(`memory: API RSS ${result.rssBeforeMiB} MiB before, peak ${result.peakMiB} MiB`);
    console.log(
      `reads while processing: p50 ${result.probe.p50} ms, p99 ${result.probe.p99} ms, max ${result.probe.max} ms`,
    );
    for (const [ok, what] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
    fs.mkdirSync(REPORTS, { recursive: true });
    fs.writeFileSync(
      path.join(REPORTS, 'photos.json'),
      `${JSON.stringify({ ...result, budgets: budgets.map(([ok, what]) => ({ ok, what })) }, null, 2)}\n`,
    );
    fs.writeFileSync(
      path.join(REPORTS, 'photos.md'),
      [
        `# Photo processing bench (${result.at})`,
        '',
        `${PHOTOS} photos of ${WIDTH} × ${HEIGHT} (${result.fileMiB} MB each), ${PER_REQUEST} per request, one API ` +
          `process.`,
        '',
        '| measure | figure |',
        '|---|---|',
        `| photos per second through the API | ${result.photosPerSecond} (${result.seconds} s) |`,
        `| the same processing alone | ${result.aloneBefore} before, ${result.aloneAfter} after |`,
        `| share (budget at least 70%) | ${(result.share * 100).toFixed(1)}% |`,
        `| CPU seconds per photo (the API's process; alone; the bench's own sending and probe on the same cores) | ` +
          (`${result.cpuSecondsPerPhoto.api}; ${result.cpuSecondsPerPhoto.alone}; ` +
            `${result.cpuSecondsPerPhoto.benchSending} |`),
        `| API resident memory | ${result.rssBeforeMiB} MiB before, peak ${result.peakMiB} MiB |`,
        `| available slots while processing (budget p99 under 50 ms) | p50 ` +
          `${result.probe.p50} ms, p99 ${result.probe.p99} ms, max ${result.probe.max} ms, ${latencies.length} reads |`,
        '',
        ...budgets.map(([ok, what]) => `- ${ok ? 'PASS' : 'FAIL'}: ${what}`),
        '',
      ].join('\n'),
    );
    if (budgets.some(([ok]) => !ok)) process.exitCode = 1;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
