# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Normalisations (group, instance, layer), adaptive pools that are and are not a plain pool, a
# pixel shuffle, softmax and log-softmax over named axes, slicing with steps and an index, a split,
# reductions, element-wise ops with constants, matmul, reshapes that move and merge the batch.
# padlab-input: 8x6x10
import torch
import torch.nn as nn
import torch.nn.functional as F


class Misc(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(4, 8)
        self.inorm = nn.InstanceNorm2d(8, affine=True)
        self.inorm2 = nn.InstanceNorm2d(8)
        self.ln = nn.LayerNorm([6, 10])
        self.ada = nn.AdaptiveAvgPool2d((4, 3))
        self.adm = nn.AdaptiveMaxPool2d((5, 7))
        self.ada_u = nn.AdaptiveAvgPool2d((3, 5))
        self.ps = nn.PixelShuffle(2)
        self.lin = nn.Linear(10, 5)
        self.act = nn.LeakyReLU(0.1)
        self.gelu = nn.GELU(approximate="tanh")
        self.elu = nn.ELU(0.5)

    def forward(self, x):
        a = self.gn(x)
        b = self.inorm(x) + self.inorm2(x)
        c = self.ln(x)
        d = self.ada(x)
        e = self.adm(x)
        f = self.ada_u(x)
        g = self.ps(x)
        h = self.lin(x)
        i = torch.log_softmax(x, dim=2)
        j = torch.softmax(x, dim=1)
        k = x[:, 1:7:2, ::3, 2]
        p, q = torch.split(x, [3, 5], dim=1)
        r = x.mean(dim=(2, 3), keepdim=True) * x.amax(dim=1, keepdim=True)
        s = torch.sum(x, dim=3)
        t = torch.maximum(p[:, :1], q[:, :1]) - torch.minimum(x, x * 0.5)
        u = torch.matmul(x, x.transpose(2, 3))
        v = self.act(x) + self.gelu(x) + self.elu(x)
        w = 1.0 - x ** 2 / (x.abs() + 1.0)
        y = x.permute(0, 2, 3, 1).reshape(2, -1, 8)
        z = x.view(-1, 60).unsqueeze(1).squeeze(1)
        cc = torch.cat([x[:, :2], x[:, 6:]], dim=1).flatten(2)
        return a, b, c, d, e, f, g, h, i, j, k, p, q, r, s, t, u, v, w, y, z, cc


model = Misc()
