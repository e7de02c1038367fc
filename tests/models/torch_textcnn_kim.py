# padlab-input: 50
# padlab-model: CNN_Text(args)
# The sentence-classification CNN of Kim (2014) in the style of its popular PyTorch port:
# settings read from an `args` object (embed_num, embed_dim, class_num, kernel_num,
# kernel_sizes, dropout), nn.Embedding, x.unsqueeze(1) to one input channel, an nn.ModuleList
# comprehension of Conv2d(Ci, Co, (K, D)) whose kernel spans the whole embedding, list
# comprehensions applying F.relu(conv(x)).squeeze(3) and max-over-time
# F.max_pool1d(i, i.size(2)).squeeze(2), torch.cat(x, 1), dropout and one Linear. The input is
# a sentence of 50 token indices.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class CNN_Text(nn.Module):

    def __init__(self, args):
        super(CNN_Text, self).__init__()
        self.args = args

        V = args.embed_num
        D = args.embed_dim
        C = args.class_num
        Ci = 1
        Co = args.kernel_num
        Ks = args.kernel_sizes

        self.embed = nn.Embedding(V, D)
        self.convs = nn.ModuleList([nn.Conv2d(Ci, Co, (K, D)) for K in Ks])
        self.dropout = nn.Dropout(args.dropout)
        self.fc1 = nn.Linear(len(Ks) * Co, C)

        if self.args.static:
            self.embed.weight.requires_grad = False

    def forward(self, x):
        x = self.embed(x)  # (N, W, D)

        x = x.unsqueeze(1)  # (N, Ci, W, D)

        x = [F.relu(conv(x)).squeeze(3) for conv in self.convs]  # each (N, Co, W - K + 1)

        x = [F.max_pool1d(i, i.size(2)).squeeze(2) for i in x]  # each (N, Co)

        x = torch.cat(x, 1)

        x = self.dropout(x)  # (N, len(Ks) * Co)
        logit = self.fc1(x)  # (N, C)
        return logit


parser = argparse.ArgumentParser(description='CNN text classifier')
parser.add_argument('-dropout', type=float, default=0.5)
parser.add_argument('-embed-dim', type=int, default=128)
parser.add_argument('-kernel-num', type=int, default=100)
parser.add_argument('-kernel-sizes', type=str, default='3,4,5')
parser.add_argument('-static', action='store_true', default=False)
args = parser.parse_args([])
args.embed_num = 21108  # the vocabulary's size
args.class_num = 2
args.kernel_sizes = [int(k) for k in args.kernel_sizes.split(',')]

cnn = CNN_Text(args)
