'use strict';
// Uploaded photos (docs/security/uploaded-images.md): what one upload costs in the built platform's
// image module, as `POST /properties/media/upload` runs it per file: the decoder's header read, the
// full-size clean re-encode and the six variants (320, 1024, 2048 px; WebP and JPEG). Each round is
// one child process (so its peak RSS is that one upload's): time of the whole processing, peak RSS
// over the child's RSS before it (Linux `VmHWM`; `maxRSS` would carry the forking parent's peak
// across exec), medians of the rounds. Also the
// refusal of a 30,000 x 30,000 PNG header, and (BENCH_IMAGES_LARGE=1) a photo at the 64-MP limit.
// Run: npm run build && node bench/images.js. Env: BENCH_IMAGES_ROUNDS (5), BENCH_IMAGES_LARGE.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MODULE = path.join(ROOT, 'dist/libs/platform/src/images/image-processing.js');
const ROUNDS = Number(process.env.BENCH_IMAGES_ROUNDS ?? 5);
const LARGE = process.env.BENCH_IMAGES_LARGE === '1';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/** A photo-like picture: blurred noise over a gradient (it compresses like a photo, not like noise). */
async function photo(sharp, format, width, height) {
  const noise = await sharp({
    create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .blur(1.2)
    .raw()
    .toBuffer();
  for (let i = 0; i < noise.length; i += 3) {
    const x = (i / 3) % width;
    noise[i] = (noise[i] + (x * 255) / width) / 2;
  }
  const image = sharp(noise, { raw: { width, height, channels: 3 } }).withExif({
    IFD0: { Make: 'Bench', Model: 'Camera' },
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '36/1 43/1 0/1',
      GPSLongitudeRef: 'W',
      GPSLongitude: '4/1 25/1 0/1',
    },
  });
  return format === 'jpeg' ? image.jpeg({ quality: 92 }).toBuffer() : image[format]().toBuffer();
}

const PNG_CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function pngChunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let c = 0xffffffff;
  for (const byte of body) c = PNG_CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0, body.length + 4);
  return out;
}
function bombHeader(width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', require('node:zlib').deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The process's peak RSS in bytes: `VmHWM` (reset by exec), else a sampled peak. */
function peakRss(sampled) {
  try {
    const line = fs.readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    if (line) return Number(line[1]) * 1024;
  } catch {
    // not Linux: the sampled peak
  }
  return sampled;
}

/** In the child: one upload's processing of the file at `file`; one JSON line on stdout. */
async function child(file) {
  const images = require(MODULE);
  const bytes = fs.readFileSync(file);
  // load sharp and libvips before the baseline (the API has them loaded after its first upload)
  await images.readImageHeader(bytes);
  const before = Math.max(process.memoryUsage().rss, peakRss(0));
  let sampled = before;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 2);
  const started = process.hrtime.bigint();
  const header = await images.readImageHeader(bytes);
  let outputs = 0;
  let kept = 0;
  if (!images.isImageRefusal(header)) {
    const { full, variants } = await images.processImage(bytes, header);
    outputs = 1 + variants.length;
    kept = [full, ...variants].reduce((sum, one) => sum + one.bytes.length, 0);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(timer);
  const peak = peakRss(sampled);
  process.stdout.write(
    JSON.stringify({
      ms,
      peakOverBase: Math.max(0, peak - before),
      refused: images.isImageRefusal(header),
      outputs,
      kept,
    }),
  );
}

async function main() {
  if (!fs.existsSync(MODULE)) throw new Error(`${MODULE} is missing: run npm run build first`);
  const sharp = require('sharp');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-images-'));
  const cases = [
    ['12-MP JPEG (4000 x 3000)', 'jpeg', 4000, 3000],
    ['12-MP WebP (4000 x 3000)', 'webp', 4000, 3000],
    ['12-MP PNG (4000 x 3000)', 'png', 4000, 3000],
  ];
  if (LARGE) {
    cases.push(['64-MP JPEG (9237 x 6928), the limit', 'jpeg', 9237, 6928]);
    cases.push(['64-MP WebP (9237 x 6928), the limit', 'webp', 9237, 6928]);
  }
  const files = [];
  for (const [label, format, width, height] of cases) {
    process.stderr.write(`making ${label}\n`);
    const file = path.join(dir, `${format}-${width}.${format}`);
    fs.writeFileSync(file, await photo(sharp, format, width, height));
    files.push([label, file]);
  }
  const bomb = path.join(dir, 'bomb.png');
  fs.writeFileSync(bomb, bombHeader(30_000, 30_000));
  files.push(['30,000 x 30,000 PNG header (refused)', bomb]);

  const rows = [];
  for (const [label, file] of files) {
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) {
      const out = execFileSync(process.execPath, [__filename, '--child', file], { encoding: 'utf8' });
      runs.push(JSON.parse(out));
    }
    const size = fs.statSync(file).size;
    rows.push({
      label,
      upload: size,
      ms: median(runs.map((r) => r.ms)),
      peak: median(runs.map((r) => r.peakOverBase)),
      outputs: runs[0].outputs,
      kept: runs[0].kept,
      each: runs.map((r) => Math.round(r.ms)),
    });
    process.stderr.write(`${label}: ${runs.map((r) => Math.round(r.ms)).join(', ')} ms\n`);
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `Images: ${ROUNDS} rounds each, medians; ${os.cpus().length} cores (${cpu}), node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})\n`,
  );
  console.log(
    '| upload | size | time | peak RSS over the process before | files kept | kept bytes | rounds (ms) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${mb(row.upload)} MB | ${row.ms.toFixed(row.ms < 10 ? 2 : 0)} ms | ${mb(row.peak)} MB | ${row.outputs} | ${mb(row.kept)} MB | ${row.each.join(', ')} |`,
    );
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3]).catch((err) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  });
}
