# padlab-input: 3x64x64
model = nn.Sequential(
    nn.Conv2d(3, 16, kernel_size=7, stride=2, padding=3, bias=False),
    nn.BatchNorm2d(16),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
    nn.AvgPool2d(3, stride=1, padding=1),
)
