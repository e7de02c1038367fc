#!/usr/bin/env python3
"""Writes the corpus's `print(model)` printouts: tests/models/printed_<name>.txt.

Each printout is what real torch prints for a corpus model, under a 2-line header:

    # padlab-input: 3x64x64
    # printed from tests/models/torch_dcgan_examples_discriminator.py

padlab reads a printout as a model (a Sequential's order is its forward; for other modules the
printed order is an assumption). The model of each file is the one its `# padlab-model:` line
names, built by tests/models/truth_torch.py's loader. Run with the frameworks' Python:

    python tests/models/make_printouts.py          # write every printout
    python tests/models/make_printouts.py --check  # fail if a printout differs from torch's

The printouts of torchvision's own models (`printed_tv_*.txt`, from tests/models/torchvision/)
need torchvision, which is not in the project's requirements (tests/fixtures/requirements.txt):
install it into the same Python first, `python -m pip install torchvision==0.29.2` (the
version that goes with torch 2.15). Without it those printouts are skipped, said on the way.
tests/models/verify.py needs it too, to run them (their models are torchvision's builders).
Two printouts come from pastes padlab refuses as code (tests/models/refused/: `nn.Softmax()`
without `dim`), whose printouts it reads.
"""

import argparse
import contextlib
import io
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import truth_torch  # noqa: E402

# name -> model file; what each one exercises in a reader of printouts
PRINTOUTS = {
    # a module class holding one Sequential (DCGAN's `main`)
    "dcgan_generator": "torch_dcgan_tutorial_generator.py",
    "dcgan_discriminator": "torch_dcgan_examples_discriminator.py",
    "patchgan_discriminator": "torch_patchgan_discriminator.py",
    # plain nn.Sequential at the top (the printed order is the forward), nested Sequentials
    "d2l_nin": "torch_d2l_nin.py",
    # plain nn.Sequential of Sequentials of a custom module (Residual)
    "d2l_resnet": "torch_d2l_resnet.py",
    # module classes with Sequentials whose forward is not the printed order alone
    "quickstart_fashion": "torch_quickstart_fashion.py",
    "alexnet": "torch_alexnet.py",
    "vgg11": "torch_vgg11_cfg.py",
    "conv_autoencoder_mnist": "torch_conv_autoencoder_mnist.py",
    "lenet5_classic": "torch_lenet5_classic.py",
    "c3d": "torch_c3d.py",
    # ResNets: BasicBlock / downsample Sequential; the CIFAR one with empty shortcut Sequentials
    "resnet18": "torch_resnet18.py",
    "cifar_resnet18": "torch_cifar_resnet18.py",
    # a Sequential subclass (ConvBNReLU) inside custom modules
    "mobilenet_v2": "torch_mobilenet_v2.py",
    # ModuleList
    "unet_modulelist": "torch_unet_modulelist.py",
    "textcnn_kim": "torch_textcnn_kim.py",
    # ModuleDict (_DenseBlock) and custom modules, an OrderedDict-named stem
    "densenet121": "torch_densenet121.py",
    # blocks whose forward padlab knows by class and children: SqueezeNet's Fire (a concat of two
    # branches), pix2pix's U-Net levels (a concat around a nested block), CycleGAN's ResnetBlock
    "squeezenet": "torch_squeezenet.py",
    "pix2pix_unet_generator": "torch_pix2pix_unet_generator.py",
    "cyclegan_resnet_generator": "torch_cyclegan_resnet_generator.py",
    # blocks of other classes with exactly a torchvision block's children (a Bottleneck named
    # `block` with `identity_downsample`; 3-D BasicBlocks)
    "resnet152": "torch_resnet152.py",
    "resnet3d": "torch_resnet3d.py",
    # torchvision's GoogLeNet (Inception: a concat of four branches; aux heads off in eval) and
    # kuangliu/pytorch-cifar-style models whose forwards use F.relu and F.avg_pool2d
    "googlenet": "torch_googlenet.py",
    "cifar_preact_resnet": "torch_cifar_preact_resnet.py",
    "cifar_wide_resnet": "torch_cifar_wide_resnet.py",
    "cifar_mobilenet": "torch_cifar_mobilenet.py",
    # milesial's U-Net: `Up` takes two inputs and pads the upsampled map to its skip's size
    "unet_bilinear": "torch_unet_bilinear.py",
    # the PyTorch tutorials' and examples' Nets: relu and pools are F. calls, not printed
    "tutorial_cifar10": "torch_tutorial_cifar10.py",
    "tutorial_nn_lenet": "torch_tutorial_nn_lenet.py",
    "examples_mnist": "torch_examples_mnist.py",
    # torchvision's Bottleneck by name (ResNet-50), the CIFAR Bottleneck, VGG with batch norm,
    # and today's MobileNetV2 (Conv2dNormActivation; pooled and flattened at the head)
    "resnet50": "torch_resnet50.py",
    "cifar_resnet50": "torch_cifar_resnet50.py",
    "vgg16_bn": "torch_vgg16_bn.py",
    "mobilenet_v2_normact": "torch_mobilenet_v2_normact.py",
    # torchvision's other classification models, printed from its own builders: blocks whose
    # children are not a chain (a squeeze-excitation scaling its input, residuals decided by
    # the printed sizes, a chunk and a channel shuffle, parallel Inception branches) and
    # StochasticDepth (the identity in eval)
    "tv_mobilenet_v3_small": "torchvision/tv_mobilenet_v3_small.py",
    "tv_shufflenet_v2_x0_5": "torchvision/tv_shufflenet_v2_x0_5.py",
    "tv_inception_v3": "torchvision/tv_inception_v3.py",
    "tv_mnasnet0_5": "torchvision/tv_mnasnet0_5.py",
    "tv_regnet_y_400mf": "torchvision/tv_regnet_y_400mf.py",
    "tv_efficientnet_b0": "torchvision/tv_efficientnet_b0.py",
    "tv_efficientnet_v2_s": "torchvision/tv_efficientnet_v2_s.py",
    "tv_convnext_tiny": "torchvision/tv_convnext_tiny.py",
    # module classes whose forward is not their printed order and whose shapes would chain in
    # it all the same: torchaudio's M5 (F.relu, a pool over time, a permute), pytorch/examples'
    # VAE (two heads on one input, noise, three outputs)
    "audio_m5": "torch_audio_m5.py",
    "examples_vae": "torch_examples_vae.py",
    # `Softmax(dim=None)`: the axis torch picks from the input's rank (1 here, 0 for rank 3)
    "softmax_no_dim": "refused/torch_softmax_no_dim.py",
    "log_softmax_frames": "refused/torch_log_softmax_frames.py",
}


def has_torchvision():
    try:
        import torchvision  # noqa: F401
    except ImportError:
        return False
    return True


def printout(model_file):
    path = os.path.join(HERE, model_file)
    with contextlib.redirect_stdout(io.StringIO()):  # the paste's own prints
        g, text = truth_torch.load(path)
        expr = truth_torch.header(text, "model") or truth_torch.default_model(g, text)
        model = eval(expr, g)
    shape = truth_torch.header(text, "input")
    return (f"# padlab-input: {shape}\n"
            f"# printed from tests/models/{model_file}\n"
            f"{model}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    os.environ.setdefault("TORCH_HOME", os.path.join(tempfile.gettempdir(), "padlab-torch-home"))
    differ = []
    torchvision = has_torchvision()
    for name, model_file in PRINTOUTS.items():
        out = os.path.join(HERE, f"printed_{name}.txt")
        if model_file.startswith("torchvision/") and not torchvision:
            print(f"printed_{name}.txt: skipped, torchvision is not installed (see the docstring)")
            continue
        text = printout(model_file)
        if args.check:
            old = open(out).read() if os.path.exists(out) else None
            if old != text:
                differ.append(out)
            continue
        with open(out, "w") as f:
            f.write(text)
        print(f"printed_{name}.txt: {text.count(chr(10)) - 2} lines from {model_file}")
    if args.check:
        if differ:
            print("printouts that differ from torch's:", *differ, sep="\n  ")
            sys.exit(1)
        print(f"{len(PRINTOUTS)} printouts equal torch's")


if __name__ == "__main__":
    main()
