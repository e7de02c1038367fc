# padlab-input: 1x28x28
# padlab-model: model
# The MNIST convolutional autoencoder of many PyTorch blog posts and gists: a lowercase
# `autoencoder` class with an encoder of Conv2d(1, 16, 3, stride=3, padding=1), MaxPool2d(2,
# stride=2), Conv2d(16, 8, 3, stride=2, padding=1), MaxPool2d(2, stride=1) down to 8x2x2, and a
# decoder of three ConvTranspose2d (3 stride 2; 5 stride 3 padding 1; 2 stride 2 padding 1) back
# to 1x28x28 with Tanh; hyperparameters at the top, and the training loop kept under
# if __name__ == '__main__' (its torchvision imports inside it).
import torch
from torch import nn

num_epochs = 100
batch_size = 128
learning_rate = 1e-3


class autoencoder(nn.Module):
    def __init__(self):
        super(autoencoder, self).__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 16, 3, stride=3, padding=1),  # -> 16 x 10 x 10
            nn.ReLU(True),
            nn.MaxPool2d(2, stride=2),  # -> 16 x 5 x 5
            nn.Conv2d(16, 8, 3, stride=2, padding=1),  # -> 8 x 3 x 3
            nn.ReLU(True),
            nn.MaxPool2d(2, stride=1)  # -> 8 x 2 x 2
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(8, 16, 3, stride=2),  # -> 16 x 5 x 5
            nn.ReLU(True),
            nn.ConvTranspose2d(16, 8, 5, stride=3, padding=1),  # -> 8 x 15 x 15
            nn.ReLU(True),
            nn.ConvTranspose2d(8, 1, 2, stride=2, padding=1),  # -> 1 x 28 x 28
            nn.Tanh()
        )

    def forward(self, x):
        x = self.encoder(x)
        x = self.decoder(x)
        return x


model = autoencoder()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=1e-5)

if __name__ == '__main__':
    from torch.utils.data import DataLoader
    from torchvision.datasets import MNIST  # not in the test venv: data only
    from torchvision import transforms
    dataset = MNIST('./data', transform=transforms.ToTensor(), download=True)
    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    for epoch in range(num_epochs):
        for img, _ in dataloader:
            output = model(img)
            loss = criterion(output, img)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print('epoch [{}/{}], loss:{:.4f}'.format(epoch + 1, num_epochs, loss.item()))
