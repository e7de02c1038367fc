# padlab-input: 1x6x6
# Seed 004: padding pads the input, not the output.
model = nn.Sequential(nn.Conv2d(in_channels=1, out_channels=1, kernel_size=5, stride=2, padding=2))
