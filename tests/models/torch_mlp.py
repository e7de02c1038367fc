# padlab-input: 64
model = nn.Sequential(
    nn.Linear(64, 32),
    nn.BatchNorm1d(32),
    nn.ReLU(),
    nn.Linear(32, 32),
    nn.LeakyReLU(0.1),
    nn.Dropout(0.25),
    nn.Linear(32, 16),
    nn.GELU(),
    nn.Linear(16, 16),
    nn.SiLU(),
    nn.Linear(16, 16),
    nn.ELU(alpha=0.5),
    nn.Linear(16, 8, bias=False),
    nn.Tanh(),
    nn.Linear(8, 4),
    nn.Softmax(dim=1),
)
