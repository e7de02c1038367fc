# padlab-input: 20
# padlab-model: Net()
# A token classifier joining a recurrent layer's states with self-attention over its outputs:
# nn.Embedding, the embeddings transposed to (time, batch) for a sequence-first two-layer
# bidirectional nn.LSTM, the top layer's two final states taken as h_n[-2:] and flattened per
# sample, both directions' last cell states c_n[-1], c_n[-2], a sequence-first
# nn.MultiheadAttention over the LSTM's outputs called with need_weights=False, its last step,
# everything concatenated into one Linear. Style: forum answers combining an LSTM encoder with
# attention; the states' slicing as those answers write it.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.lstm = nn.LSTM(16, 24, num_layers=2, bidirectional=True)
        self.attn = nn.MultiheadAttention(48, 4)
        self.fc = nn.Linear(2 * 24 * 2 + 48, 3)

    def forward(self, tokens):
        e = self.emb(tokens).transpose(0, 1)
        out, (h_n, c_n) = self.lstm(e)
        last_two = h_n[-2:].transpose(0, 1).reshape(tokens.size(0), -1)
        a, _ = self.attn(out, out, out, need_weights=False)
        return self.fc(torch.cat([last_two, c_n[-1], c_n[-2], a[-1]], dim=1))
