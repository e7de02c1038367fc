# padlab-refuses: LogSoftmax() without dim: torch picks the axis from the input's rank (a deprecated implicit choice); give dim
# padlab-input: 40x100
# A frame classifier over 40 filterbank channels written as one nn.Sequential, its last layer
# `nn.LogSoftmax()` without `dim`. Torch warns and, for this rank-3 output (batch, classes,
# frames), takes dim 0: the batch, not the classes. padlab refuses the code (give dim) but reads
# the printout (printed_log_softmax_frames.txt), whose row states the dim torch took.
import torch.nn as nn

model = nn.Sequential(
    nn.Conv1d(40, 64, kernel_size=5, padding=2),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Conv1d(64, 64, kernel_size=3, padding=1),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Conv1d(64, 12, kernel_size=1),
    nn.LogSoftmax(),
)
