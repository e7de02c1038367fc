# padlab-input: 64
# padlab-model: TextCNN(vocab_size=5000, embed_dim=300, num_classes=4)
# A text CNN as sentiment-analysis tutorials write it with Conv1d: nn.Embedding with
# padding_idx=0, the embedding turned to channels-first with x.permute(0, 2, 1), parallel
# nn.Conv1d(embed_dim, num_filters[i], filter_sizes[i]) in a ModuleList built from zip, max over
# time written F.max_pool1d(x_conv, kernel_size=x_conv.shape[2]), torch.cat of the squeezed
# results, dropout and a Linear; a 64-token input.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    """Embedding -> parallel 1-D convolutions of several widths -> max over time -> linear."""

    def __init__(self,
                 vocab_size=None,
                 embed_dim=300,
                 filter_sizes=[3, 4, 5],
                 num_filters=[100, 100, 100],
                 num_classes=2,
                 dropout=0.5):
        super(TextCNN, self).__init__()
        self.embed_dim = embed_dim
        self.embedding = nn.Embedding(num_embeddings=vocab_size,
                                      embedding_dim=self.embed_dim,
                                      padding_idx=0,
                                      max_norm=5.0)
        self.conv1d_list = nn.ModuleList([
            nn.Conv1d(in_channels=self.embed_dim,
                      out_channels=n,
                      kernel_size=k)
            for k, n in zip(filter_sizes, num_filters)
        ])
        self.fc = nn.Linear(sum(num_filters), num_classes)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, input_ids):
        # (b, max_len) -> (b, max_len, embed_dim)
        x_embed = self.embedding(input_ids).float()

        # Conv1d wants (b, embed_dim, max_len)
        x_reshaped = x_embed.permute(0, 2, 1)

        # one (b, num_filters[i], L_out) per width
        x_conv_list = [F.relu(conv1d(x_reshaped)) for conv1d in self.conv1d_list]

        # max over time: (b, num_filters[i], 1)
        x_pool_list = [F.max_pool1d(x_conv, kernel_size=x_conv.shape[2])
                       for x_conv in x_conv_list]

        # (b, sum(num_filters))
        x_fc = torch.cat([x_pool.squeeze(dim=2) for x_pool in x_pool_list],
                         dim=1)

        logits = self.fc(self.dropout(x_fc))

        return logits
