# padlab-input: 8x249
# Seed 001: conv_transpose1d with stride 6, padding 9 and output_padding 4 on 249 samples.
model = nn.Sequential(
    nn.ConvTranspose1d(8, 4, 7, stride=6, padding=9, output_padding=4),
    nn.ReLU(),
)
