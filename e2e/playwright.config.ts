import { defineConfig } from '@playwright/test';

// The built site (dist/) served by Python on loopback; Debian's Chromium (no browser download).
// PADLAB_BASE sets a sub-path (e.g. /padlab/) to test a GitHub Pages build.
const port = Number(process.env.PADLAB_PORT ?? 4173);
const base = process.env.PADLAB_BASE ?? '/';
const root = process.env.PADLAB_DIST ?? '../dist';

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}${base}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: {
    command: `python3 serve.py ${port} ${root} ${base}`,
    url: `http://127.0.0.1:${port}${base}`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
