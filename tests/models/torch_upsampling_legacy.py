# padlab-input: 3x10x10
# The older torch upsampling modules and the channel softmax of segmentation heads, with their
# fixed modes: nearest; bilinear with align_corners=True; softmax over the channels.
import torch.nn as nn

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.UpsamplingNearest2d(scale_factor=2),
    nn.Conv2d(8, 4, 3),
    nn.UpsamplingBilinear2d(size=(20, 24)),
    nn.Softmax2d(),
)
