import { readFileSync, statSync } from 'node:fs';
import { test, expect } from './fixtures/padlab';

// The Whole model view with a real model, as a person sees it, at a desktop and a phone width,
// light and dark: written to e2e/screenshots/ (checked in and looked at).
const toyResnet = readFileSync(`${__dirname}/../../tests/models/keras_toy_resnet.py`, 'utf8');
const residual = readFileSync(`${__dirname}/../../tests/files/onnx/pad_then_conv.onnx`);

for (const [width, device] of [[1280, 'desktop'], [390, 'phone']] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a screenshot of the model view (${device}, ${scheme})`, async ({ padlab }) => {
      const page = padlab.page;
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 1000 });
      await padlab.open();
      await page.getByTestId('view-model').click();
      await page.getByTestId('model-source').fill(toyResnet);
      await expect(page.getByTestId('model-row')).toHaveCount(14);
      await expect(page.getByTestId('model-row-reads')).toHaveCount(2);
      const dir = process.env.PADLAB_BASE ? 'test-results' : 'screenshots';
      let path = `${dir}/model-view-${device}-${scheme}.png`;
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size, 'a real screenshot').toBeGreaterThan(20_000);
      // A file with flags: the porter's list and the flagged rows.
      await page.getByTestId('model-file').setInputFiles({ name: 'pad_then_conv.onnx', mimeType: 'application/octet-stream', buffer: residual });
      await expect(page.getByTestId('model-file-about')).toContainText('pad_then_conv.onnx');
      await expect(page.getByTestId('model-flags')).toBeVisible();
      path = `${dir}/model-file-${device}-${scheme}.png`;
      await page.getByTestId('model-flags').scrollIntoViewIfNeeded();
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size, 'a real screenshot').toBeGreaterThan(20_000);
    });
  }
}
