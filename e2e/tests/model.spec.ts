import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/padlab';

// Seed 002 as the user pasted it (indented, `img_size` undefined: the input is typed).
const seed002 = readFileSync(`${__dirname}/../../tests/models/seed002_keras.py`, 'utf8');

test('a pasted Keras model gets its layer table and PyTorch code; a row opens in the picture; the link keeps the model', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-source').fill(seed002);
  // No input shape stated in the paste: the table says so, then fills in once it is typed.
  await expect(page.getByTestId('model-notice')).toContainText('input');
  await page.getByTestId('model-input').fill('32x32x3');
  const rows = page.getByTestId('model-row');
  await expect(rows).toHaveCount(9);
  const outputs = page.getByTestId('model-output');
  await expect(outputs.nth(0)).toHaveText('30 × 30 × 64');
  await expect(outputs.nth(4)).toHaveText('30 × 30 × 64');
  await expect(outputs.nth(7)).toHaveText('15 × 15 × 64');
  await expect(outputs.nth(8)).toHaveText('15 × 15 × 128');
  // Keras BatchNormalization(axis=1) normalises a spatial axis: flagged, and ported as such.
  await expect(rows.nth(1)).toContainText('axis');
  const torch = page.getByTestId('model-code-torch');
  await expect(torch).toContainText('model = nn.Sequential(');
  await expect(torch).toContainText('nn.Conv2d(3, 64, 3)');
  await expect(torch).toContainText('nn.Conv2d(64, 64, 3, padding=1)');
  await expect(torch).toContainText('eps=0.001, momentum=0.01)');
  // The Keras tab holds the model in Keras again.
  await page.getByTestId('model-tab-keras').click();
  await expect(page.getByTestId('model-code-keras')).toContainText('layers.Conv2D(64, 3');

  // The self-check script builds the source from the paste and compares.
  await page.getByTestId('model-check').check();
  await page.getByTestId('model-tab-torch').click();
  await expect(torch).toContainText('padlab self-check passed');

  // The address keeps the model: a reload restores the paste and the input.
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#view=model&model=/);
  await page.reload();
  await expect(page.getByTestId('model-view')).toBeVisible();
  await expect(page.getByTestId('model-input')).toHaveValue('32x32x3');
  await expect(page.getByTestId('model-source')).toHaveValue(seed002);
  await expect(page.getByTestId('model-row')).toHaveCount(9);

  // The strided 'same' max pool (row 8) opens in the picture at its real input, 30×30.
  await page.getByTestId('model-row').nth(7).getByTestId('model-row-link').click();
  await expect(page.getByTestId('view-layer')).toHaveAttribute('aria-selected', 'true');
  await expect(padlab.field('input')).toHaveValue('30x30');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '15x15');
  await expect(page.getByTestId('grid-svg')).toHaveAttribute('data-renderer', 'svg');
  await expect(page.getByTestId('cell-input')).toHaveCount(900);
  // The model is still there behind the other tab.
  await page.getByTestId('view-model').click();
  await expect(page.getByTestId('model-row')).toHaveCount(9);
});

test('a syntax error names its line; a layer padlab does not translate names itself', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-source').fill('import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3),\n    nn.ReLU(\n');
  await expect(page.getByTestId('model-error')).toContainText('line 4');
  await expect(page.getByTestId('model-error')).toContainText('was never closed');
  await page.getByTestId('model-source').fill('import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3),\n    nn.LSTMCell(8, 8),\n)\n');
  await expect(page.getByTestId('model-error')).toContainText('line 4');
  await expect(page.getByTestId('model-error')).toContainText('LSTM');
});

test('a pasted layer call fills the form', async ({ padlab }) => {
  const page = padlab.page;
  await padlab.open();
  await page.getByTestId('paste-layer').fill('nn.Conv2d(32, 32, (4, 1), padding=(1, 0))');
  await expect(padlab.field('framework')).toHaveValue('torch');
  await expect(padlab.field('kernel')).toHaveValue('4x1');
  await expect(padlab.field('padding')).toHaveValue('1x0');
  await page.getByTestId('paste-layer').fill('Conv2D(32, (4, 1), padding="same")');
  await expect(padlab.field('framework')).toHaveValue('keras');
  await expect(padlab.field('padding')).toHaveValue('same');
  // Not a layer: said under the field, the form kept.
  await page.getByTestId('paste-layer').fill('nn.Linear(3, 4)');
  await expect(page.locator('#paste-layer-error')).not.toBeEmpty();
  await expect(padlab.field('padding')).toHaveValue('same');
});

test('a paste with any characters comes back from its link byte for byte', async ({ padlab }) => {
  const page = padlab.page;
  // The worker's old field and record separators, other control characters, a line separator
  // and a character beyond the BMP, in a comment and in a string. (A carriage return is not
  // among them: a textarea's value turns it into a newline by the HTML standard.)
  const odd = '\u0001\u001e\u001f\u0007\t\u000b\u000c\u007f\u0085\u00a0\u2028\u{1f600}';
  const paste = `${seed002}# ${odd} trailing\u001e\nname = "${odd}"\n\u001f`;
  await padlab.open();
  await page.getByTestId('view-model').click();
  // The input first: the only link that holds the whole paste then holds the input too.
  await page.getByTestId('model-input').fill('32x32x3');
  await page.getByTestId('model-source').fill(paste);
  await expect(page.getByTestId('model-row').or(page.getByTestId('model-error')).first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#view=model&model=.{300}/);
  const link = page.url();
  await page.reload();
  await expect(page.getByTestId('model-view')).toBeVisible();
  await expect(page.getByTestId('model-source')).toHaveValue(paste);
  await expect(page.getByTestId('model-input')).toHaveValue('32x32x3');
  // The same link opened fresh restores the same text.
  await page.goto(link);
  await expect(page.getByTestId('model-source')).toHaveValue(paste);
  expect(await page.getByTestId('model-source').inputValue()).toBe(paste);
});
