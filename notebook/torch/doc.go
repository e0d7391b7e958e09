// Package torch is the cell language's tensors: the Starlark face of
// package tensor, with PyTorch's names so that a learner's habits carry
// over (the cells' dialect has @ and x[:, -1], package kernel; Starlark
// has no **: t.pow(k)):
//
//	torch.manual_seed(1)
//	x = torch.tensor([[1.0, 2.0, 3.0]])
//	W = torch.randn(3, 2, requires_grad=True)
//	out = x @ W + torch.zeros(2)
//	out.retain_grad()
//	loss = out.tanh().sum()
//	loss.backward()
//	cmp("dW", x.T @ out.grad, W)   # a gradient by hand against autograd's
//
// The Tensor type is tensor.go, its methods methods.go, the modules torch
// and F modules.go, what attention adds (transposes of stacks, masks,
// tril, stack, embedding, dropout) transformer.go, cmp cmp.go, and
// show(loss) of a one-element tensor,
// which draws the scalar Values its computation stands for, show.go. The
// tensors of a chain of cells share their part (part.go, a kernel.Part):
// torch's generator and the kept states' numbers.
package torch
