import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { test, expect } from './fixtures/padlab';

// A model file is read in the browser: chosen with the file input or dropped on the view, its
// bytes go to the worker (a transferred buffer), never to the network.
const onnx = (name: string) => readFileSync(`${__dirname}/../../tests/files/onnx/${name}`);
const keras = (name: string) => readFileSync(`${__dirname}/../../tests/files/keras/${name}`);

// The view is a module of its own, loaded when first shown: ready once its drop zone is there.
async function openModelView(page: Page) {
  await page.getByTestId('view-model').click();
  await expect(page.getByTestId('model-view')).toBeVisible();
  await expect(page.getByTestId('model-drop')).toBeVisible();
}

// What a drop of the residual export carries, made in the page.
function residualDrop(page: Page) {
  return page.evaluateHandle((data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'residual.onnx'));
    return dt;
  }, onnx('torch_residual_ts.onnx').toString('base64'));
}

test('an ONNX file is read in the page: its table flags the asymmetric pads, a row opens in the picture, and no request carries the file', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await openModelView(page);
  // The file control is a real, labelled file input, described as a drop zone.
  const input = page.getByLabel('Model file (.onnx, .keras, .h5)');
  await expect(input).toHaveAttribute('type', 'file');
  await expect(input).toHaveAccessibleDescription(/drop it anywhere on this view.*never uploaded/);

  // Every request from here on (the page's and its worker's), with its body.
  const requests: Request[] = [];
  page.context().on('request', (r) => requests.push(r));
  const bytes = onnx('conv2d_notset_asym.onnx');
  await input.setInputFiles({ name: 'conv2d_notset_asym.onnx', mimeType: 'application/octet-stream', buffer: bytes });

  await expect(page.getByTestId('model-file-about')).toContainText('conv2d_notset_asym.onnx');
  await expect(page.getByTestId('model-file-about')).toContainText('never uploaded');
  await expect(page.getByTestId('model-file-status')).toBeVisible();
  const rows = page.getByTestId('model-row');
  await expect(rows).toHaveCount(1);
  // The asymmetric pads are flagged on their row and in the porter's list.
  await expect(rows.first()).toHaveAttribute('data-flags', /\basymmetric\b/);
  await expect(rows.first().getByTestId('model-row-flag')).toContainText('a symmetric port shifts the output');
  await expect(page.getByTestId('model-flags')).toContainText('asymmetric pads row #1');
  // Ported to every target.
  await expect(page.getByTestId('model-code-torch')).toContainText('nn.ZeroPad2d((1, 1, 0, 2))');
  // No request was made with the file: none has a body, none names it, and the address holds
  // no model.
  for (const r of requests) {
    expect(r.method(), r.url()).toBe('GET');
    expect(r.postDataBuffer(), r.url()).toBeNull();
    expect(r.url()).not.toContain('conv2d_notset_asym');
  }
  expect(new URL(page.url()).hash).toBe('#view=model');

  // The row opens its layer in the picture at its real input, in the page: the file stays
  // behind the other tab.
  const shape = (await rows.first().locator('td[data-label="input"]').innerText()).split(' × ').slice(1).join('x');
  await rows.first().getByTestId('model-row-link').click();
  await expect(page.getByTestId('view-layer')).toHaveAttribute('aria-selected', 'true');
  await expect(padlab.field('framework')).toHaveValue('onnx');
  await expect(padlab.field('input')).toHaveValue(shape);
  await page.getByTestId('view-model').click();
  await expect(page.getByTestId('model-file-about')).toContainText('conv2d_notset_asym.onnx');
  await expect(rows).toHaveCount(1);
  // Typing a paste closes the file.
  await page.getByTestId('model-source').fill('import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3))\n');
  await page.getByTestId('model-input').fill('3x8x8');
  await expect(page.getByTestId('model-file-status')).toBeHidden();
  await expect(page.getByTestId('model-output').first()).toHaveText('8 × 6 × 6');
});

test('a file dropped on the view is read: a residual export shows the rows its add reads', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await openModelView(page);
  const dataTransfer = await residualDrop(page);
  const view = page.getByTestId('model-view');
  await view.dispatchEvent('dragenter', { dataTransfer });
  await expect(view).toHaveAttribute('data-dragging', 'true');
  await view.dispatchEvent('drop', { dataTransfer });
  await expect(view).not.toHaveAttribute('data-dragging', 'true');
  await expect(page.getByTestId('model-file-about')).toContainText('residual.onnx');
  const add = page.getByTestId('model-row').filter({ hasText: 'Add()' });
  await expect(add.getByTestId('model-row-reads')).toContainText('#3 /conv2/Conv, #4 /down/down.0/Conv');
  // The ceil-mode average pool is flagged.
  await expect(page.getByTestId('model-flags')).toContainText('ceil_mode');
});

test('a file dropped while the view is still loading is kept, and read once the view has loaded', async ({ padlab }) => {
  const page = padlab.page;
  // The view's module is held back until the file has been dropped.
  let release = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route('**/padlab-model_loader.js', async (route) => { await held; await route.continue(); });
  await padlab.open();
  await page.getByTestId('view-model').click();
  const view = page.getByTestId('model-view');
  await expect(view).toHaveAttribute('aria-busy', 'true');
  await expect(view).toContainText('Loading the model reader');
  const dataTransfer = await residualDrop(page);
  // The drop is taken (the browser would otherwise leave the page to show the file).
  const taken = await view.evaluate((el, dt) => {
    const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    el.dispatchEvent(ev);
    return ev.defaultPrevented;
  }, dataTransfer);
  expect(taken).toBe(true);
  release();
  await expect(view).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('model-file-about')).toContainText('residual.onnx');
  await expect(page.getByTestId('model-row').filter({ hasText: 'Add()' })).toHaveCount(1);
});

test('a Keras file is read like ONNX: its table and ports, and with the self-check option, scripts that load the file', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await openModelView(page);
  const input = page.getByTestId('model-file');
  await input.setInputFiles({ name: 'sequential_cnn.keras', mimeType: 'application/octet-stream', buffer: keras('sequential_cnn.keras') });
  await expect(page.getByTestId('model-file-about')).toContainText('sequential_cnn.keras: Keras (.keras) model');
  await expect(page.getByTestId('model-error')).toHaveCount(0);
  const rows = page.getByTestId('model-row');
  await expect(rows.first()).toContainText('conv_a');
  // Keras's own layout (height, width, channels), one sample: 28 × 28 × 1 in, 'same' at stride 2.
  await expect(rows.first().locator('td[data-label="input"]')).toHaveText('28 × 28 × 1');
  await expect(page.getByTestId('model-output').first()).toHaveText('14 × 14 × 8');
  await expect(page.getByTestId('model-code-torch')).toContainText('nn.Conv2d');
  await expect(page.getByTestId('model-code-torch')).not.toContainText('padlab self-check passed');
  // The self-check: each target's script loads the file by its name (no "not available" note).
  await page.getByTestId('model-check').check();
  const torch = page.getByTestId('model-code-torch');
  await expect(torch).toContainText('padlab self-check passed');
  await expect(torch).toContainText('sequential_cnn.keras');
  await page.getByTestId('model-tab-jax').click();
  await expect(page.getByTestId('model-code-jax')).toContainText('padlab self-check passed');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('model-download-jax').click(),
  ]);
  expect(download.suggestedFilename()).toBe('padlab_check_jax.py');
  const script = readFileSync(await download.path(), 'utf8');
  expect(script).toContain('sequential_cnn.keras');
  expect(script).toContain('padlab self-check passed');
  // A legacy Keras file (.h5), functional with a residual add.
  await input.setInputFiles({ name: 'residual.h5', mimeType: 'application/octet-stream', buffer: keras('functional_residual.h5') });
  await expect(page.getByTestId('model-file-about')).toContainText('residual.h5: Keras HDF5 (.h5) model');
  await expect(page.getByTestId('model-row-reads').first()).toBeVisible();
  await expect(page.getByTestId('model-code-jax')).toContainText('residual.h5');
});

test('a bad file gets one clear notice, and the view stays usable', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await openModelView(page);
  const input = page.getByTestId('model-file');
  await input.setInputFiles({ name: 'notes.onnx', mimeType: 'text/plain', buffer: Buffer.from('these are my notes, not a model') });
  const error = page.getByTestId('model-error');
  await expect(error).toContainText('notes.onnx was not read');
  await expect(error).toContainText('not a model file');
  await expect(error).toHaveAttribute('role', 'alert');
  // Cut short.
  const cut = onnx('torch_cnn_ts.onnx');
  await input.setInputFiles({ name: 'cut.onnx', mimeType: 'application/octet-stream', buffer: cut.subarray(0, Math.floor(cut.length / 2)) });
  await expect(error).toContainText('cut.onnx was not read');
  // Empty.
  await input.setInputFiles({ name: 'empty.onnx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0) });
  await expect(error).toContainText('empty.onnx was not read: the file is empty');
  // A good file after the bad ones, then closing it returns to the (empty) paste.
  await input.setInputFiles({ name: 'cnn.onnx', mimeType: 'application/octet-stream', buffer: cut });
  await expect(page.getByTestId('model-file-about')).toContainText('cnn.onnx');
  await page.getByTestId('model-file-close').click();
  await expect(page.getByTestId('model-file-status')).toBeHidden();
  await expect(page.locator('#model-output')).toContainText('Paste a model');
});
