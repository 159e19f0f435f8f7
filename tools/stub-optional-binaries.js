// Adds package-lock entries for optional platform binaries (other OSes/CPUs) that the registry
// mirror does not list at the locked version, so `npm ci` validates; os/cpu/libc keep npm from
// ever fetching them on this platform.
const fs = require('fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
const OS = [
  'darwin',
  'win32',
  'linux',
  'freebsd',
  'android',
  'openharmony',
  'sunos',
  'openbsd',
  'netbsd',
  'aix',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'mips64el'];
const platform = (name) => {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu =
    CPU.find((c) => parts.includes(c)) ??
    (parts.includes('gnueabihf') || parts.includes('musleabihf') ? 'arm' : undefined);
  const libc = parts.some((p) => p.startsWith('musl'))
    ? 'musl'
    : parts.some((p) => p.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc: [libc] } : {}) };
};
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies || {})) {
    if (pkgs[`node_modules/${name}`] || pkgs[`${path}/node_modules/${name}`]) continue;
    pkgs[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ''),
      ...platform(name),
      optional: true,
      ...(meta.dev ? { dev: true } : {}),
    };
    console.log('stub', name, JSON.stringify(platform(name)));
    added++;
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
