import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/padlab';

// Graphs and printed models in the Whole model view: a residual model's adds show the rows they
// read; a torch printout and a Keras summary say they are printed models and what was assumed.
const model = (name: string) => readFileSync(`${__dirname}/../../tests/models/${name}`, 'utf8');

test('a pasted residual model: each add shows the rows it reads', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-source').fill(model('keras_toy_resnet.py'));
  const rows = page.getByTestId('model-row');
  await expect(rows).toHaveCount(14);
  await expect(page.getByTestId('model-printed')).toHaveCount(0);
  const reads = page.getByTestId('model-row-reads');
  await expect(reads).toHaveCount(2);
  await expect(rows.nth(5)).toContainText('layers.add([x, block_1_output])');
  await expect(rows.nth(5).getByTestId('model-row-reads')).toHaveText('reads ← #5 conv2d_3, #3 max_pooling2d');
  await expect(rows.nth(8).getByTestId('model-row-reads')).toContainText('#8 conv2d_5, #6 add');
  await expect(page.getByTestId('model-output').nth(5)).toHaveText('9 × 9 × 64');
  // The port is functional: the add reads both tensors.
  await page.getByTestId('model-tab-keras').click();
  await expect(page.getByTestId('model-code-keras')).toContainText('layers.Add');
  // The self-check script downloads as a file, made in the page.
  await page.getByTestId('model-check').check();
  await expect(page.getByTestId('model-code-keras')).toContainText('padlab self-check passed');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('model-download-keras').click(),
  ]);
  expect(download.suggestedFilename()).toBe('padlab_check_keras.py');
  const path = await download.path();
  expect(readFileSync(path, 'utf8')).toContain('padlab self-check passed');
  await expect(page.getByTestId('model-status')).toContainText('Saved padlab_check_keras.py');
});

test('a torch printout is read as a printed model, saying what it assumed', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-input').fill('3x224x224');
  await page.getByTestId('model-source').fill(model('printed_resnet18.txt'));
  const printed = page.getByTestId('model-printed');
  await expect(printed).toContainText('A printed model, not code');
  await expect(printed).toContainText('print(model)');
  await expect(printed).toContainText('forward');
  await expect(page.getByTestId('model-row').first()).toContainText('Conv2d(3, 64, kernel_size=(7, 7)');
  await expect(page.getByTestId('model-output').first()).toHaveText('64 × 112 × 112');
});

test('a Keras summary is read as a printed model: its own shapes, its adds reading two rows', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-source').fill(model('summary_toy_resnet.txt'));
  const printed = page.getByTestId('model-printed');
  await expect(printed).toContainText('model.summary()');
  await expect(printed).toContainText('Read from a Keras model.summary() table');
  const rows = page.getByTestId('model-row');
  await expect(rows).toHaveCount(14);
  await expect(page.getByTestId('model-row-reads').first()).toContainText('#5 conv2d_3, #3 max_pooling2d');
  await expect(page.getByTestId('model-output').nth(2)).toHaveText('9 × 9 × 64');
});

test('a read error names its line and quotes it', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-source').fill('import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3),\n    nn.LSTMCell(8, 8),\n)\n');
  await expect(page.getByTestId('model-error')).toContainText('line 4');
  await expect(page.getByTestId('model-error-line')).toHaveText('4     nn.LSTMCell(8, 8),');
});
