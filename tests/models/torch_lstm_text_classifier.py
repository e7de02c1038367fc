# padlab-input: 40
# padlab-model: LSTMClassifier(vocab_size=5000, embedding_dim=64, hidden_dim=128, output_dim=4)
# A text classifier in the style of the many PyTorch sentiment tutorials: nn.Embedding of token
# ids, a two-layer nn.LSTM with batch_first=True and dropout between its layers, the output's
# last time step taken with out[:, -1, :], dropout and a Linear to the classes. The forward
# unpacks `out, (hidden, cell) = self.lstm(embedded)`. The input is 40 token indices.
import torch
import torch.nn as nn


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, output_dim, n_layers=2, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, num_layers=n_layers,
                            batch_first=True, dropout=dropout)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(hidden_dim, output_dim)

    def forward(self, text):
        embedded = self.embedding(text)
        out, (hidden, cell) = self.lstm(embedded)
        last = out[:, -1, :]
        return self.fc(self.dropout(last))
