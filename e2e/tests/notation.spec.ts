import { test, expect } from './fixtures/padlab';

// People type sizes and padding the way their framework prints them.
test('sizes in Python notation and whole tensor shapes fill the input', async ({ padlab }) => {
  await padlab.open();
  await padlab.chooseFramework('torch');
  await padlab.set('kernel', '(4, 1)');
  await padlab.set('padding', '0');
  await padlab.set('stride', '1');
  for (const [text, out] of [
    ['(6, 6)', '3x6'],
    ['[6, 6]', '3x6'],
    ['6,6', '3x6'],
    ['100x20', '97x20'],
  ]) {
    await padlab.set('input', text);
    await expect(padlab.outputSize).toHaveAttribute('data-value', out);
  }
  // A printed torch.Size: batch and channels left out, and said so beside the field.
  await padlab.set('input', 'torch.Size([64, 32, 100, 20])');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '97x20');
  await expect(padlab.page.locator('#input-note')).toContainText('batch 64 and 32 channels');
  await expect(padlab.page).toHaveURL(/in=100x20/);
  // Keras' (None, H, W, C).
  await padlab.set('input', '(None, 30, 30, 64)');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '27x30');
  await expect(padlab.page.locator('#input-note')).toContainText('channels last');
});

test('padding in each framework\'s notation', async ({ padlab }) => {
  await padlab.open();
  await padlab.chooseFramework('torch');
  await padlab.set('input', '100x20');
  await padlab.set('kernel', '4x1');
  await padlab.set('stride', '1');
  // torch's padding=(1, 0): one amount per dimension, both sides.
  await padlab.set('padding', '(1, 0)');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '99x20');
  await expect(padlab.page.getByTestId('pad-before').first()).toHaveText('1');
  // 1,0 on a 2-D layer is the same tuple (and the page says how it read it).
  await padlab.set('padding', '1,0');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '99x20');
  await expect(padlab.page.locator('#padding-note')).toContainText('Python tuple');
  await padlab.set('padding', "padding='same'");
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  // Per-side pairs, written as Python or as tf.pad's (batch and channels included).
  await padlab.chooseFramework('jax');
  await padlab.set('padding', '((1, 2), (0, 0))');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(padlab.page.getByTestId('pad-after').first()).toHaveText('2');
  await padlab.set('padding', '[[0, 0], [1, 2], [0, 0], [0, 0]]');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(padlab.page.locator('#padding-note')).toContainText('tf.pad');
});

test('a half-typed value is not flagged until the typing pauses or the field is left', async ({ padlab }) => {
  await padlab.open();
  const input = padlab.field('input');
  await input.fill('');
  await input.pressSequentially('100x', { delay: 30 });
  // Right after the keystrokes: no red yet.
  await expect(input).toHaveAttribute('aria-invalid', 'false');
  await expect(padlab.error).toHaveCount(0);
  // After the pause the field and the answer say why.
  await expect(input).toHaveAttribute('aria-invalid', 'true', { timeout: 3000 });
  await expect(padlab.error).toBeVisible();
  await expect(padlab.page.locator('#input-error')).not.toBeEmpty();
});
