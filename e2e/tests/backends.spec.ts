import { test, expect } from './fixtures/padlab';

// Keras 3 on its three backends: the same layer, other numbers or another answer.
test('the Keras backend is a control, kept in the link, and shown where the backends part', async ({ padlab }) => {
  const page = padlab.page;
  // AveragePooling1D(3, strides=2, padding='same') on 2: (x0 + x1) / 2 on TensorFlow and JAX,
  // (x0 + 2·x1) / 3 on torch.
  await page.goto('./?op=avg_pool&fw=keras&in=2&k=3&s=2&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '1');
  const table = page.getByTestId('comparison');
  await expect(table.getByRole('row', { name: /Keras 'same', torch backend/ })).toContainText('replicated edge values');
  // Only a Keras layer has the control.
  await expect(padlab.field('backend')).toBeVisible();
  await padlab.field('backend').selectOption('torch');
  await expect(page).toHaveURL(/be=torch/);
  // The Keras line is the layer itself, exact on that backend only, and says so.
  await expect(page.getByTestId('answer-keras')).toContainText('KERAS_BACKEND=torch');
  await expect(page.getByTestId('answer-torch')).toContainText("mode='replicate'");
  // The picture names the padding as the repeated edge, and the values mode averages it in.
  await page.getByTestId('values').check();
  await expect(page.locator('#fill-text')).toContainText('edge value repeated');
  await expect(page.getByTestId('values-sum')).toContainText('/ 3');
  await padlab.chooseFramework('torch');
  await expect(padlab.field('backend')).toBeHidden();
  await expect(page).not.toHaveURL(/be=/);
});

test('a transposed layer refused on TensorFlow is answered on the torch backend', async ({ padlab }) => {
  const page = padlab.page;
  await page.goto('./?op=conv_transpose&fw=keras&in=4&k=4&s=2&p=same&outpad=0');
  await expect(padlab.error).toContainText('out_backprop');
  await padlab.field('backend').selectOption('torch');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '6');
  await expect(page.getByTestId('answer-torch').locator('code')).not.toBeEmpty();
});
