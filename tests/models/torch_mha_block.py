# padlab-input: 12x32
# padlab-model: AttentionBlock(32, 4)
# A self-attention block in the style of minimal transformer write-ups: nn.MultiheadAttention
# with batch_first=True called as `attn_out, attn_weights = self.attn(x, x, x)`, a residual and
# nn.LayerNorm, a position-wise feed-forward of two Linears with a GELU, a second residual and
# norm, then a mean over time and a Linear classifier. The input is 12 tokens of 32 features.
import torch
import torch.nn as nn


class AttentionBlock(nn.Module):
    def __init__(self, d_model, n_heads, n_classes=5):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, x):
        attn_out, attn_weights = self.attn(x, x, x)
        x = self.norm1(x + attn_out)
        x = self.norm2(x + self.ff(x))
        return self.head(x.mean(dim=1))
