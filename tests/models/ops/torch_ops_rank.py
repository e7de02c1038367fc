# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# 1-D and 3-D: linear interpolation by 2.5 and with align_corners, trilinear and nearest 3-D,
# adaptive 1-D and 3-D pools, a 3-D average not counting padding, instance and batch norm on
# sequences, a transposed 1-D convolution zero-extended (its bias added after), a grouped
# reflect-padded dilated 1-D convolution.
# padlab-input: 4x9
import torch
import torch.nn as nn
import torch.nn.functional as F


class Rank(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2.5, mode="linear", align_corners=False)
        self.up2 = nn.Upsample(size=20, mode="linear", align_corners=True)
        self.ad = nn.AdaptiveAvgPool1d(4)
        self.am = nn.AdaptiveMaxPool1d(5)
        self.conv3 = nn.Conv3d(1, 2, 3, padding=1)
        self.pool3 = nn.AvgPool3d(2, stride=1, padding=1, count_include_pad=False)
        self.ad3 = nn.AdaptiveAvgPool3d((2, 3, 5))
        self.in1 = nn.InstanceNorm1d(4, affine=True, eps=1e-3)
        self.bn1 = nn.BatchNorm1d(4)
        self.tc1 = nn.ConvTranspose1d(4, 3, 5, stride=3, padding=1, output_padding=2)
        self.gc1 = nn.Conv1d(4, 8, 3, groups=2, padding=2, dilation=2, padding_mode="reflect")

    def forward(self, x):
        v = x.unsqueeze(1).unsqueeze(1)  # N, 1, 1, 4, 9
        v = torch.cat([v, v * 2, v + 1], dim=2)
        t = F.interpolate(v, scale_factor=(1, 2, 1), mode="trilinear")
        w = F.interpolate(v, size=(5, 7, 11), mode="nearest")
        c = self.conv3(v)
        return self.up(x), self.up2(x), self.ad(x), self.am(x), t, w, c, self.pool3(c), self.ad3(c), self.in1(x), self.bn1(x), self.tc1(x), self.gc1(x)


model = Rank()
