# padlab-input: 3x40x40
channels = [3, 16, 32]
kernel = 3
layers = []
layers.append(nn.Conv2d(channels[0], 16, kernel, stride=2, padding=kernel // 2))
layers.append(nn.BatchNorm2d(16))
layers += [nn.ReLU(inplace=True)]
layers.extend([nn.Conv2d(16, 32, kernel, stride=2, padding=1), nn.ReLU()])
net = nn.Sequential(*layers, nn.Flatten(), nn.Linear(32 * 10 * 10, 5))
