# padlab-input: 6x64
model = nn.Sequential(
    nn.Conv1d(6, 12, 5, stride=2, padding=2),
    nn.ReLU(),
    nn.Conv1d(12, 12, 3, dilation=2, padding=2),
    nn.MaxPool1d(3, stride=2, padding=1),
    nn.Conv1d(12, 8, 4),
    nn.AdaptiveAvgPool1d(1),
    nn.Flatten(),
    nn.Linear(8, 2),
)
