# padlab-model: model
# Keras Applications' ResNet50 whole, as a 1000-class ImageNet classifier built untrained
# (include_top=True, weights=None, classes=1000): its 224x224 input, 'conv1_pad' before the 7x7
# stride-2 convolution, the bottleneck stages conv2..conv5, 'avg_pool' and the softmax
# 'predictions'. padlab reads the architecture from its own copy of Keras Applications.
# Style: keras.io's "Usage examples for image classification models".
import keras
from keras.applications.resnet50 import ResNet50

model = ResNet50(include_top=True, weights=None, classes=1000)
print(model.get_layer("conv5_block3_out").output.shape)
