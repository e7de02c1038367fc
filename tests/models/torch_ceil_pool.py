# padlab-input: 4x15x14
model = nn.Sequential(
    nn.MaxPool2d(3, 2, ceil_mode=True),
    nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
    nn.AvgPool2d(2, ceil_mode=True),
    nn.AvgPool2d(3, stride=1, padding=1),
)
