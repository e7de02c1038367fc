# padlab-input: 25x16
# padlab-model: GRUNet(16, 32, 3)
# A sequence regressor in the style of the time-series forecasting tutorials: an nn.GRU over
# (batch, time, features) started from an explicit zero state built in the forward with
# torch.zeros(num_layers, batch, hidden), the last layer's final state read as h[-1], a ReLU and
# a Linear head. The input is 25 time steps of 16 features.
import torch
import torch.nn as nn


class GRUNet(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, n_layers=2):
        super(GRUNet, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_layers = n_layers
        self.gru = nn.GRU(input_dim, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_dim)
        self.relu = nn.ReLU()

    def forward(self, x):
        h0 = torch.zeros(self.n_layers, x.size(0), self.hidden_dim)
        out, h = self.gru(x, h0)
        out = self.fc(self.relu(h[-1]))
        return out
