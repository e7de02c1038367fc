# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Every torch interpolation a port must reproduce exactly: bilinear with align_corners, sizes that
# are no integer factor, nearest by 1.5, bicubic (torch's A = -0.75, not TensorFlow's -0.5),
# a downsampling.
# padlab-input: 3x7x9
import torch
import torch.nn as nn
import torch.nn.functional as F


class Interp(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        x = self.conv(x)
        a = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)
        b = F.interpolate(x, size=(10, 13), mode="bilinear", align_corners=False)
        c = F.interpolate(x, scale_factor=1.5, mode="nearest")
        d = F.interpolate(x, size=(11, 20), mode="bicubic", align_corners=False)
        e = F.interpolate(x, scale_factor=3, mode="nearest")
        f = F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=True)
        g = F.interpolate(x, size=(5, 4), mode="bilinear", align_corners=False)
        return a, b, c, d, e, f, g


model = Interp()
