import { chromium } from '@playwright/test';
const size = process.argv[2] ?? '32';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1200, height: 900 } });
await p.goto(`http://127.0.0.1:4198/?op=conv&fw=keras&in=${size}x${size}&k=3&p=same`);
await p.getByTestId('output-size').waitFor();
await p.waitForTimeout(1500);
const cdp = await p.context().newCDPSession(p);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
const times = await p.evaluate(async (n) => {
  const input = document.querySelector('[data-testid="kernel"]');
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    input.value = i % 2 ? '3' : '5';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = performance.now();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    times.push([t1 - t0, performance.now() - t0]);
  }
  return times;
}, 30);
const { profile } = await cdp.send('Profiler.stop');
const self = new Map(); const byId = new Map();
profile.nodes.forEach(n => byId.set(n.id, n));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
let total = 0;
for (const [id, us] of counts) { const n = byId.get(id); const name = n.callFrame.functionName || `(${n.callFrame.url.split('/').pop()})`; self.set(name, (self.get(name) ?? 0) + us); total += us; }
const sorted = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log('sync handler median ms', med(times.map(t => t[0])).toFixed(2), 'to next frame', med(times.map(t => t[1])).toFixed(2));
console.log('total sampled ms', (total / 1000).toFixed(1));
for (const [name, us] of sorted) console.log((us / 1000).toFixed(1).padStart(8), name.slice(0, 140));
await b.close();
