# padlab-input: 2x8x10x12
model = nn.Sequential(
    nn.Conv3d(2, 4, 3, padding=1),
    nn.BatchNorm3d(4),
    nn.ReLU(),
    nn.MaxPool3d(2),
    nn.ConvTranspose3d(4, 3, 3, stride=2, padding=1, output_padding=1),
    nn.Conv3d(3, 2, (1, 3, 3), stride=(1, 2, 2)),
)
