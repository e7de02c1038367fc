# padlab-input: 30
# padlab-model: BiLSTMSentiment(2000, 50, 64, 2)
# A bidirectional LSTM sentiment model in the style of the "packed padded sequences" tutorials
# without the packing: nn.Embedding, a sequence-first (batch_first=False) two-layer
# bidirectional nn.LSTM, the text permuted to (time, batch) first, and the final forward and
# backward states of the top layer joined with torch.cat((hidden[-2, :, :], hidden[-1, :, :]),
# dim=1) before dropout and the Linear. The input is 30 token indices.
import torch
import torch.nn as nn


class BiLSTMSentiment(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, output_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.rnn = nn.LSTM(embedding_dim, hidden_dim, num_layers=2, bidirectional=True, dropout=0.5)
        self.fc = nn.Linear(hidden_dim * 2, output_dim)
        self.dropout = nn.Dropout(0.5)

    def forward(self, text):
        embedded = self.dropout(self.embedding(text.permute(1, 0)))
        output, (hidden, cell) = self.rnn(embedded)
        hidden = self.dropout(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1))
        return self.fc(hidden)
