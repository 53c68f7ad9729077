# SPDX-License-Identifier: MIT
# A measurement, not part of the pipeline: how well a small network fits the positions that
# damka-train fits, on the same split and the same target, before any of it is built in C.
# Inputs: the 32 squares x {own man, own king, enemy man, enemy king}, seen from the side to
# move (the board turned around for Black); 128 -> H -> 32 -> 1, hidden layers clipped to
# [0, 1]; the output is the evaluation divided by K. The target is damka-train's:
# 0.5 * result + 0.5 * sigmoid(score / 90), K = 90 as it fits for round 7's data; held out as
# --holdout-block 4096 does (one block of 4096 records in 20), drawn endings left out as the
# trainer leaves them. Adam, batch 4096, step 0.001 halved every 4 epochs.
#   python3 tools/train/nn_probe.py data/round7.bin 128 12   (numpy; about 80 s an epoch here)
import numpy as np, time, sys
PATH=sys.argv[1]
H=int(sys.argv[2]) if len(sys.argv)>2 else 128
EPOCHS=int(sys.argv[3]) if len(sys.argv)>3 else 12
raw=np.fromfile(PATH,dtype=np.uint8).reshape(-1,16)
n=len(raw)
w=raw[:,0:4].copy().view('<u4')[:,0]; b=raw[:,4:8].copy().view('<u4')[:,0]; k=raw[:,8:12].copy().view('<u4')[:,0]
side=raw[:,12]; res=raw[:,13].astype(np.int8).astype(np.float32); sc=raw[:,14:16].copy().view('<i2')[:,0].astype(np.float32)
bits=((np.stack([w,b,k],1)[:,:,None] >> np.arange(32,dtype=np.uint32)) & 1).astype(np.uint8)  # n,3,32
W,B,K=bits[:,0],bits[:,1],bits[:,2]
blk=side==1
# side to move's view: for black mirror squares (s->31-s) and swap colours
own=np.where(blk[:,None],B[:,::-1],W); opp=np.where(blk[:,None],W[:,::-1],B); kk=np.where(blk[:,None],K[:,::-1],K)
X=np.concatenate([own&(1-kk),own&kk,opp&(1-kk),opp&kk],1).astype(np.float32)  # n,128
men=(X[:,0:32].sum(1)+X[:,64:96].sum(1)); pieces_own=X[:,0:64].sum(1); pieces_opp=X[:,64:128].sum(1)
diag=np.zeros(32,np.float32); diag[[3,7,10,14,17,21,24,28]]=1  # h8 g7 f6 e5 d4 c3 b2 a1 (0-based)
ownd=((X[:,32:64])*diag).sum(1)>0; oppd=((X[:,96:128])*diag).sum(1)>0
drawish=(men==0)&( ((pieces_own==1)&((pieces_opp<=2)|((pieces_opp==3)&ownd))) | ((pieces_opp==1)&((pieces_own<=2)|((pieces_own==3)&oppd))) )
idx=np.arange(n); held=((idx//4096)%20==0)
sig=lambda x:1/(1+np.exp(-x))
Kc=90.0
T=(0.5*(res+1)/2+0.5*sig(sc/Kc)).astype(np.float32)
tr=(~held)&(~drawish); va=held&(~drawish)
Xt,Tt,Xv,Tv=X[tr],T[tr],X[va],T[va]
print('train',len(Xt),'held',len(Xv),'drawish',drawish.sum(),flush=True)
rng=np.random.default_rng(1)
W1=(rng.standard_normal((128,H))*np.sqrt(2/24)).astype(np.float32); b1=np.zeros(H,np.float32)
W2=(rng.standard_normal((H,32))*np.sqrt(2/H)).astype(np.float32); b2=np.zeros(32,np.float32)
W3=(rng.standard_normal((32,1))*np.sqrt(1/32)).astype(np.float32); b3=np.zeros(1,np.float32)
P=[W1,b1,W2,b2,W3,b3]; M=[np.zeros_like(p) for p in P]; V=[np.zeros_like(p) for p in P]
def fwd(x):
    h1=np.clip(x@W1+b1,0,1); h2=np.clip(h1@W2+b2,0,1); o=(h2@W3+b3)[:,0]
    return h1,h2,o
def loss(x,t):
    tot=0
    for i in range(0,len(x),65536):
        o=fwd(x[i:i+65536])[2]; p=np.clip(sig(o),1e-7,1-1e-7); tt=t[i:i+65536]
        tot+=-(tt*np.log(p)+(1-tt)*np.log(1-p)).sum()
    return tot/len(x)
lr=1e-3; step=0; bs=4096
print('epoch 0 held',loss(Xv,Tv),flush=True)
for ep in range(EPOCHS):
    t0=time.time(); perm=rng.permutation(len(Xt))
    lr_e=lr*(0.5**(ep//4))
    for i in range(0,len(perm),bs):
        j=perm[i:i+bs]; x=Xt[j]; t=Tt[j]
        z1=x@W1+b1; h1=np.clip(z1,0,1); z2=h1@W2+b2; h2=np.clip(z2,0,1); o=(h2@W3+b3)[:,0]
        g=((sig(o)-t)/len(j)).astype(np.float32)[:,None]
        gW3=h2.T@g; gb3=g.sum(0); gh2=g@W3.T*((z2>0)&(z2<1))
        gW2=h1.T@gh2; gb2=gh2.sum(0); gh1=gh2@W2.T*((z1>0)&(z1<1))
        gW1=x.T@gh1; gb1=gh1.sum(0)
        G=[gW1,gb1,gW2,gb2,gW3,gb3]; step+=1
        for q in range(6):
            M[q]=0.9*M[q]+0.1*G[q]; V[q]=0.999*V[q]+0.001*G[q]*G[q]
            P[q]-= (lr_e*(M[q]/(1-0.9**step))/(np.sqrt(V[q]/(1-0.999**step))+1e-8)).astype(np.float32)
    print('epoch',ep+1,'train',round(loss(Xt[:300000],Tt[:300000]),6),'held',round(loss(Xv,Tv),6),'%.0fs'%(time.time()-t0),flush=True)
