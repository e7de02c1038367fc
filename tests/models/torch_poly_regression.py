# padlab-input: 3
# padlab-model: fc
# A script with no model class at all: one nn.Linear fitted in a training loop to the
# coefficients of a random cubic, its features built by a helper (x, x^2, x^3) and its target by
# another; the loop stops after a fixed number of steps. padlab reads the lone layer as the
# model (its 3 input features fix the input; the lines above name it for the referee).
# Style: the PyTorch examples' "regression" script (a layer trained by hand, `fc.zero_grad()`,
# parameters updated in place).
import torch
import torch.nn.functional as F

DEGREE = 3
true_w = torch.randn(DEGREE, 1) * 3
true_b = torch.randn(1) * 3


def features(x):
    """Columns x, x^2, x^3 of a batch of scalars."""
    x = x.unsqueeze(1)
    return torch.cat([x ** k for k in range(1, DEGREE + 1)], 1)


def target(x):
    return x.mm(true_w) + true_b.item()


def batch(size=16):
    x = features(torch.randn(size))
    return x, target(x)


# the whole model: one fully connected layer
fc = torch.nn.Linear(true_w.size(0), 1)

for step in range(200):
    xs, ys = batch()
    fc.zero_grad()
    loss = F.smooth_l1_loss(fc(xs), ys)
    loss.backward()
    with torch.no_grad():
        for p in fc.parameters():
            p.add_(-0.05 * p.grad)
    if loss.item() < 1e-3:
        break
