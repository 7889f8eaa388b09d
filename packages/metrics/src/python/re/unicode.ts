// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The Unicode data of the `re` port: the
// tables of CPython 3.11, character classes and case mappings.
import { type Ranges, rsEach, rsHas, rsMinus, rsPoints, rsUnion } from "./sets.js";

// ---------------------------------------------------------------------------------------------------
// Unicode data (decoded on first use)
// BEGIN GENERATED TABLES (scripts/regex-tables.gen.py; CPython 3.11.7, unicodedata 14.0.0)
const T_WORD =
  "1c,9,8,p,5,0,2,p,1c,0,8,1,2,0,4,1,2,2,2,m,2,u,2,cp,5,b,f,4,8,0,2,0,3m,4,2,1,3,3,2,0,7,0,2,2,2,0,2,j,2,2a,2,3u,9,4l,2,11," +
  "3,0,7,14,20,q,5,3,1a,16,m,9,5,1,2,2q,2,0,g,1,8,e,3,0,h,0,2,t,u,2g,c,0,f,16,a,1,5,0,6,l,5,0,a,0,4,0,o,o,8,a,6,n,2,5,i,15," +
  "1n,1h,4,0,j,0,8,9,5,9,2,f,5,7,3,1,3,l,2,6,2,0,4,3,4,0,h,0,e,1,2,2,5,b,3,5,3,0,9,5,5,1,3,l,2,6,2,1,2,1,2,1,w,3,2,0,8,9,3," +
  "2,h,8,2,2,2,l,2,6,2,1,2,4,4,0,j,0,g,1,5,9,a,0,c,7,3,1,3,l,2,6,2,1,2,4,4,0,v,1,2,2,5,9,2,6,c,0,2,5,4,2,2,3,4,1,2,0,2,1,4," +
  "1,4,2,4,b,n,0,m,c,j,7,2,2,2,m,2,f,4,0,r,2,3,0,3,1,5,9,9,6,2,0,5,7,2,2,2,m,2,9,2,4,4,0,w,1,2,1,5,9,2,1,i,8,2,2,2,14,3,0," +
  "h,0,6,2,2,9,5,i,2,5,6,h,4,n,2,8,2,0,3,6,w,9,i,1b,2,1,d,6,a,9,14,1,2,0,2,4,2,n,2,0,2,9,2,1,a,0,3,4,2,0,a,9,3,3,x,0,w,j,d," +
  "7,2,z,s,4,38,16,l,a,7,5,5,3,4,0,4,1,8,2,5,c,d,0,2,9,7,11,2,0,6,0,3,16,2,98,2,3,3,6,2,0,2,3,3,14,2,3,3,w,2,3,3,6,2,0,2,3," +
  "3,e,2,1k,2,3,3,1u,f,j,4,f,h,2d,3,5,4,h7,3,g,2,p,6,22,4,a,8,h,e,i,f,h,f,c,2,2,g,1f,10,0,5,0,4,9,7,9,n,9,7,2g,8,4,3,x,2,0," +
  "6,1x,b,u,14,13,3,4,c,17,5,p,7,a,12,m,a,1g,18,9,7,9,e,0,2m,1a,i,7,4,9,16,t,e,1j,r,z,t,9,4,1c,3,8,8,16,3,2,16,3,2,5,2,1,4," +
  "0,6,5b,1t,7p,3,5,3,11,3,5,3,7,2,0,2,0,2,0,2,u,3,1g,2,6,2,0,4,2,2,6,4,3,3,5,5,c,6,2,2,6,38,1,3,5,6,a,7,c,2u,0,5,0,3,9,2," +
  "0,4,4,7,0,2,0,2,0,2,3,2,a,3,3,6,4,5,0,2,1l,k7,1n,27,l,hj,t,vh,6c,7,3,4,1,a,0,3,11,2,0,6,0,3,1j,8,0,h,m,a,6,2,6,2,6,2,6," +
  "2,6,2,6,2,6,2,6,29,0,d2,2,q,8,8,4,3,4,5,2d,7,2,2,2h,2,3,6,16,2,2l,4,3,b,v,1d,f,x,9,v,7,2,e,x,9,14,e,8x,533,1t,h3g,1w,19," +
  "3,7g,4,r,l,1a,h,u,3,27,14,8,3,2u,3,1r,6,1,2,0,2,4,p,f,2,2,2,3,2,m,e,5,b,1f,f,1d,t,9,p,5,4,0,2,1,2,11,b,m,q,s,8,1a,t,a,7," +
  "4,2,o,2,14,o,2,2,7,5,9,7,m,4,0,4,1d,2,0,4,1,3,4,3,0,2,0,p,2,3,a,8,2,d,5,3,5,3,5,a,6,2,6,2,16,2,d,7,36,e,9,7,8mb,d,m,5," +
  "1c,6it,a5,3,2x,13,6,d,4,6,0,2,9,2,c,2,4,2,0,2,1,2,1,2,2z,y,a2,j,1r,3,1h,15,b,39,4,2,3q,k,9,8,p,7,p,c,2g,4,5,3,5,3,5,3,2," +
  "10,b,2,p,2,i,2,1,2,e,3,d,z,3e,d,18,d,1k,i,1,6t,s,4,1c,h,q,5,z,a,t,6,11,b,t,3,z,5,7,2,4,17,4d,3,9,7,z,5,z,5,13,9,1f,d,a," +
  "2,e,2,6,2,1,2,a,2,e,2,6,2,1,1w,8m,a,l,b,7,p,5,2,15,2,8,1y,5,3,0,2,17,2,1,4,0,3,m,3,u,3,11,9,8,1d,i,2,1,6,w,5,p,1z,1j,5," +
  "j,3,1a,g,3,2,2,2,s,b,8,o,u,2,v,x,7,2,r,7,4,h,1h,b,l,3,q,6,p,o,6,29,20,1k,1e,e,1e,8,15,d,9,87,u,2,15,7,1,27,13,9,l,c,3,s," +
  "h,1b,r,l,m,d,1g,r,t,2,1,3,0,e,18,x,o,8,9,a,z,g,9,5,0,3,0,9,y,4,0,d,1b,f,3,c,a,2,0,5,j,c,h,2,o,2d,6,2,0,2,3,2,e,2,9,8,1a," +
  "i,9,c,7,3,1,3,l,2,6,2,1,2,4,4,0,j,0,d,4,4f,1g,j,3,6,9,6,2,v,1b,l,1,2,0,9,9,4n,1a,16,3,11,1b,l,0,c,9,13,16,e,0,8,9,1j,q," +
  "m,b,5,6,56,17,39,2a,d,7,3,0,3,7,2,1,2,n,g,0,2,0,f,9,1z,7,3,12,h,0,2,0,t,0,b,13,8,0,m,0,c,19,k,0,j,20,7c,8,2,10,i,0,g,s," +
  "6,t,35,6,2,1,2,11,m,0,a,9,7,5,2,1,2,v,f,0,8,9,8n,i,5a,0,g,k,18,pl,2v,32,i,5f,219,2o,g,tq,34i,g6,6nu,fs,8,u,2,9,7,26,2,9," +
  "7,t,j,1b,h,3,d,9,2,6,2,k,6,i,j5,2e,2y,22,6,0,1v,c,1t,1,2,0,t,4qf,9,yd,17,8,6w8,3,2,6,2,1,2,82,1a,2,i,3,9,az,1s5,2y,6,c," +
  "4,8,8,9,4ef,j,31,o,3s,2c,2,1y,2,1,3,0,3,1,3,3,2,b,2,0,2,6,2,1s,2,3,3,7,2,6,2,r,2,3,2,4,2,0,4,6,2,9f,3,o,2,o,2,u,2,o,2,u," +
  "2,o,2,u,2,o,2,u,2,o,2,7,3,1d,1dt,u,de,18,b,6,3,9,5,0,8y,t,j,17,5,9,yv,6,2,3,2,1,2,e,2,5g,3,8,1d,1v,8,0,5,9,m0,1m,2,2,2," +
  "3,25,18,2,e,5f,3,2,q,2,1,2,0,3,0,2,9,2,3,2,0,2,0,7,0,5,0,2,0,2,0,2,2,2,1,2,0,3,0,2,0,2,0,2,0,2,0,2,1,2,0,3,3,2,6,2,3,2," +
  "3,2,0,2,9,2,g,6,2,2,4,2,g,g5,c,25g,9,sn,wyn,x,37c,8,65,3,4g1,f,5rk,2e8,f1,15v,3t6";
const T_DECIMAL =
  "1c,9,17r,9,3r,9,5j,9,bh,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,2p,9,3b,9,1z,9,7r,9,1z,9,1fr,9,13,9,8d,9,3l,9,4n," +
  "9,7,9,53,9,2f,9,3r,9,7,9,r7r,9,iv,9,13,9,5j,9,n,9,2f,9,bb,9,gev,9,13b,9,1on,9,ml,9,3l,9,1p,9,41,9,7r,9,9j,9,3b,9,af,9," +
  "2v,9,2v,9,br,9,2v,9,l3,9,6v,9,1z,9,f5j,9,2f,9,3r,9,lf9,1d,1tt,9,br,9,193,9,3o7,9";
const T_DIGIT =
  "1c,9,3d,1,6,0,147,9,3r,9,5j,9,bh,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,3b,9,2p,9,3b,9,1z,9,7r,9,1z,9,k0,8,vj,9,13,9," +
  "8d,9,3l,a,4m,9,7,9,53,9,2f,9,3r,9,7,9,t3,0,4,5,7,9,rb,8,c,8,c,8,2i,0,b,8,2,0,hj,8,2,8,2,8,ozy,9,iv,9,13,9,5j,9,n,9,2f,9," +
  "bb,9,gev,9,13b,9,13r,3,kt,9,87,8,dm,8,c,9,3l,9,1p,9,41,9,7r,9,9j,9,3b,9,af,9,2v,9,2v,9,br,9,2v,9,l3,9,6v,9,1z,9,f5j,9," +
  "2f,9,3r,9,lf9,1d,1tt,9,br,9,193,9,1if,a,25i,9";
const T_SPACE = "9,4,f,4,2t,0,r,0,4bk,0,1vk,a,u,1,6,0,1c,0,335,0";
const T_LOWER =
  "1t,q,1,w,3j,n,1,w,o,7,1,w,14,o,2,1,1c,1,1,-5j,2,3,2,1,7,8,2,1,h,n,2,1,1a,1,1,-3d,1,3,2,1,8,1,1,5u,1,2,2,1,4,1,1,5q,1,1," +
  "1,1,2,2,1,5p,2,1,1,1,3,1,1,27,1,1,1,5m,1,1,1,5n,1,1,1,1,2,1,1,5p,1,1,1,5r,2,1,1,5v,1,1,1,5t,1,1,1,1,4,1,1,5v,1,1,1,5x,2," +
  "1,1,5y,1,3,2,1,6,1,1,62,1,1,1,1,2,1,1,62,3,1,1,1,2,1,1,62,1,1,1,1,2,2,1,61,2,2,2,1,4,1,1,63,1,1,1,1,4,1,1,1,8,1,1,2,1,1," +
  "1,1,2,1,1,2,1,1,1,1,2,1,1,2,1,9,2,1,j,9,2,1,j,1,1,2,1,2,2,1,4,1,1,-2p,1,1,1,-1k,1,k,2,1,14,1,1,-3m,2,9,2,1,o,1,1,8bv,1," +
  "1,1,1,2,1,1,-4j,1,1,1,8bs,3,1,1,1,2,1,1,-5f,1,1,1,1x,1,1,1,1z,1,5,2,1,8a,2,2,1,6,1,1,1,9,1,1,38,7,1,1,12,2,3,1,11,4,1,1," +
  "1s,2,2,1,1r,3,h,1,w,i,9,1,w,18,1,1,8,9,c,2,1,s,1,1,-1o,3,1,1,1,2,1,1,-7,1,1,1,1,3,3,1,-3m,3,g,1,28,g,w,1,w,28,h,2,1,16," +
  "r,2,1,1i,1,1,f,1,7,2,1,f,1c,2,1,2p,12,1,1c,29b,12,1,5ls,13,1,1,5ls,6,1,1,5ls,k3,28,1,tzk,28,6,1,8,1pc,17,1,-2bk,19,3,1," +
  "-2bk,8z,23,2,1,4e,1,1,-5vj,2,1c,2,1,2w,8,1,-8,g,6,1,-8,g,8,1,-8,g,8,1,-8,g,6,1,-8,h,4,2,-8,f,8,1,-8,w,8,1,-8,g,8,1,-8,g," +
  "8,1,-8,g,2,1,-8,2,2,1,-22,2,1,1,-9,c,4,1,-2e,4,1,1,-9,c,2,1,-8,2,2,1,-2s,e,2,1,-8,2,2,1,-34,2,1,1,-7,c,2,1,-3k,2,2,1," +
  "-3i,2,1,1,-9,8a,1,1,-5st,4,1,1,-6gv,1,1,1,-6di,7,1,1,s,1a,g,1,g,z,1,1,1,mr,q,1,q,1fu,1c,1,1c,2o,1,1,1,2,1,1,-8af,1,1,1," +
  "-2xy,1,1,1,-89z,3,3,2,1,6,1,1,-8bg,1,1,1,-8al,1,1,1,-8bj,1,1,1,-8bi,2,1,1,1,3,1,1,1,9,2,1,-8cf,2,1e,2,1,2z,2,2,1,7,1,1," +
  "1,nym,n,2,1,1s,e,2,1,4i,7,2,1,g,v,2,1,1z,2,2,1,4,1,1,-r9g,1,5,2,1,d,1,1,1,2,1,1,-wmg,3,2,2,1,6,a,2,1,k,1,1,-wn8,1,1,1," +
  "-wnj,1,1,1,-wnf,1,1,1,-wn5,1,1,1,-wn8,2,1,1,-wlu,1,1,1,-wmi,1,1,1,-wlx,1,1,1,ps,1,8,2,1,g,1,1,-1c,1,1,1,-wn7,1,1,1,-raw," +
  "1,2,2,1,9,1,1,1,6,2,2,1,v,1,1,1,h7w,q,1,w,yn,14,1,14,4w,10,1,14,5c,b,1,13,c,f,1,13,g,7,1,13,8,2,1,13,1d8,1f,1,1s,2e8,w," +
  "1,w,gww,w,1,w,o8w,y,1,y";
const T_UPPER =
  "2p,q,1,-w,2c,1,1,kn,16,1,1,-3w,1,n,1,-w,o,7,1,-w,7,1,1,3d,2,o,2,-1,1c,1,1,-6g,2,3,2,-1,7,8,2,-1,f,1,1,ab,2,n,2,-1,1b,3," +
  "2,-1,5,1,1,-8c,1,1,1,5f,3,2,2,-1,5,1,1,-1,4,1,1,-1,6,1,1,-1,3,1,1,2p,4,1,1,-1,1,1,1,4j,4,1,1,3m,3,3,2,-1,7,1,1,-1,5,1,1," +
  "-1,3,1,1,-1,4,2,2,-1,5,1,1,-1,4,1,1,-1,2,1,1,1k,6,1,1,-1,1,1,1,-2,2,1,1,-1,1,1,1,-2,2,1,1,-1,1,1,1,-2,2,8,2,-1,f,1,1," +
  "-27,2,9,2,-1,h,1,1,-bq,2,1,1,-1,1,1,1,-2,2,1,1,-1,4,k,2,-1,16,9,2,-1,p,1,1,-1,3,2,1,8cf,3,1,1,-1,5,5,2,-1,9,1,1,8bj,1,1," +
  "1,8bg,1,1,1,8bi,1,1,1,-5u,1,1,1,-5q,2,2,1,-5p,3,1,1,-5m,2,1,1,-5n,1,1,1,wnj,4,1,1,-5p,1,1,1,wnf,2,1,1,-5r,2,1,1,wmg,1,1," +
  "1,wn8,2,1,1,-5t,1,1,1,-5v,1,1,1,wn8,1,1,1,8af,1,1,1,wn5,3,1,1,-5v,2,1,1,8al,1,1,1,-5x,3,1,1,-5y,8,1,1,89z,3,1,1,-62,2,1," +
  "1,wn7,1,1,1,-62,4,1,1,wmi,1,1,1,-62,1,1,1,-1x,1,2,1,-61,2,1,1,-1z,6,1,1,-63,b,1,1,wlx,1,1,1,wlu,4n,1,1,2c,18,2,2,-1,6,1," +
  "1,-1,4,3,1,3m,l,1,1,9,s,1,1,-12,1,3,1,-11,3,1,1,-b,1,h,1,-w,h,1,1,-v,1,9,1,-w,9,1,1,-1s,1,2,1,-1r,3,1,1,-1q,1,1,1,-1l,4," +
  "1,1,-1b,1,1,1,-1i,1,1,1,-8,2,c,2,-1,n,1,1,-2e,1,1,1,-28,1,1,1,7,1,1,1,-38,2,1,1,-2o,3,1,1,-1,3,1,1,-1,1h,w,1,-w,w,g,1," +
  "-28,h,h,2,-1,16,r,2,-1,1j,7,2,-1,d,1,1,-f,2,1c,2,-1,40,12,1,-1c,12,1,1,-2a,289,17,1,2bk,19,3,1,2bk,l7,6,1,-8,1oo,1,1," +
  "-4tq,1,1,1,-4tp,1,1,1,-4tg,1,2,1,-4te,2,1,1,-4tf,1,1,1,-4t8,1,1,1,-4rp,1,1,1,r7m,6p,1,1,r9g,4,1,1,2xy,h,1,1,raw,37,23,2," +
  "-1,45,1,1,-5zi,1,1,1,-5z7,1,1,1,-5z5,1,1,1,-5z4,1,1,1,-5zt,1,1,1,-1n,6,1c,2,-1,2n,8,1,8,g,6,1,8,g,8,1,8,g,8,1,8,g,6,1,8," +
  "g,1,1,-5gr,1,1,1,8,1,1,1,-5gt,1,1,1,8,1,1,1,-5gv,1,1,1,8,1,1,1,-5gx,1,1,1,8,9,8,1,8,g,2,1,22,2,4,1,2e,4,2,1,2s,2,2,1,3k," +
  "2,2,1,34,2,2,1,3i,4,8,1,-3c,8,8,1,-3k,8,8,1,-2w,8,8,1,-34,8,8,1,-1k,8,8,1,-1s,8,3,1,8,3,1,1,-5k2,1,1,1,-5ke,2,1,1,-5k5," +
  "1,1,1,-5k6,5,1,1,-5kb,2,1,1,-5k5,4,1,1,8,1,1,1,-5kc,1,1,1,-5kr,2,1,1,-5kf,1,1,1,-5kg,5,1,1,-5kl,4,2,1,8,2,1,1,-5kp,1,1," +
  "1,-5kq,3,1,1,-5kt,1,1,1,-5ku,9,2,1,8,2,1,1,-5kt,1,1,1,-5ku,1,1,1,-5kz,1,1,1,7,1,1,1,-5kx,1,1,1,-5ky,b,1,1,8,1,1,1,-5l6," +
  "1,1,1,-5lx,2,1,1,-5l9,1,1,1,-5la,5,1,1,-5lf,9e,1,1,-s,y,g,1,-g,k,1,1,-1,ng,q,1,-q,1gg,1c,1,-1c,1d,1,1,-1,4,1,1,-8bv,1,1," +
  "1,-8bs,2,3,2,-1,b,1,1,-1,3,1,1,-1,b,1e,2,-1,2z,2,2,-1,7,1,1,-1,d,12,1,-5ls,13,1,1,-5ls,6,1,1,-5ls,nx0,n,2,-1,1s,e,2,-1," +
  "4i,7,2,-1,g,v,2,-1,1z,2,2,-1,5,5,2,-1,d,1,1,-1,5,2,2,-1,3,1,1,1c,3,a,2,-1,u,8,2,-1,j,2,2,-1,9,1,1,-1,6,2,2,-1,v,1,1,-1," +
  "nx,1,1,-ps,t,28,1,-tzk,fps,1,1,-1diy,1,1,1,-1diz,1,1,1,-1dj0,1,1,1,-1dj1,1,1,1,-1dj2,1,1,1,-1diq,1,1,1,-1dir,d,1,1," +
  "-1cjz,1,1,1,-1ck0,1,1,1,-1ck1,1,1,1,-1cjs,1,1,1,-1ck3,tm,q,1,-w,yv,14,1,-14,4w,10,1,-14,5b,b,1,-13,c,f,1,-13,g,7,1,-13," +
  "8,2,1,-13,1dx,1f,1,-1s,2dc,w,1,-w,gww,w,1,-w,o8y,y,1,-y";
// END GENERATED TABLES
function decodeNumbers(s: string): number[] {
  return s.split(",").map((x) => parseInt(x, 36));
}

function decodeRanges(s: string): Ranges {
  const n = decodeNumbers(s);
  const out: number[] = [];
  let prev = 0;
  for (let i = 0; i < n.length; i += 2) {
    const a = prev + n[i]!;
    const b = a + n[i + 1]!;
    out.push(a, b);
    prev = b;
  }
  return out;
}

function decodeRuns(s: string): Map<number, number> {
  const n = decodeNumbers(s);
  const out = new Map<number, number>();
  let prev = 0;
  for (let i = 0; i < n.length; i += 4) {
    const c = prev + n[i]!;
    for (let k = 0; k < n[i + 1]!; k++) out.set(c + k * n[i + 2]!, c + k * n[i + 2]! + n[i + 3]!);
    prev = c;
  }
  return out;
}

/** `re/_casefix.py` `_EXTRA_CASES`: lowercase code point -> other lowercase code points with the same uppercase. */
export const EXTRA_CASES: ReadonlyMap<number, readonly number[]> = new Map([
  [0x69, [0x131]],
  [0x73, [0x17f]],
  [0xb5, [0x3bc]],
  [0x131, [0x69]],
  [0x17f, [0x73]],
  [0x345, [0x3b9, 0x1fbe]],
  [0x390, [0x1fd3]],
  [0x3b0, [0x1fe3]],
  [0x3b2, [0x3d0]],
  [0x3b5, [0x3f5]],
  [0x3b8, [0x3d1]],
  [0x3b9, [0x345, 0x1fbe]],
  [0x3ba, [0x3f0]],
  [0x3bc, [0xb5]],
  [0x3c0, [0x3d6]],
  [0x3c1, [0x3f1]],
  [0x3c2, [0x3c3]],
  [0x3c3, [0x3c2]],
  [0x3c6, [0x3d5]],
  [0x3d0, [0x3b2]],
  [0x3d1, [0x3b8]],
  [0x3d5, [0x3c6]],
  [0x3d6, [0x3c0]],
  [0x3f0, [0x3ba]],
  [0x3f1, [0x3c1]],
  [0x3f5, [0x3b5]],
  [0x432, [0x1c80]],
  [0x434, [0x1c81]],
  [0x43e, [0x1c82]],
  [0x441, [0x1c83]],
  [0x442, [0x1c84, 0x1c85]],
  [0x44a, [0x1c86]],
  [0x463, [0x1c87]],
  [0x1c80, [0x432]],
  [0x1c81, [0x434]],
  [0x1c82, [0x43e]],
  [0x1c83, [0x441]],
  [0x1c84, [0x442, 0x1c85]],
  [0x1c85, [0x442, 0x1c84]],
  [0x1c86, [0x44a]],
  [0x1c87, [0x463]],
  [0x1c88, [0xa64b]],
  [0x1e61, [0x1e9b]],
  [0x1e9b, [0x1e61]],
  [0x1fbe, [0x345, 0x3b9]],
  [0x1fd3, [0x390]],
  [0x1fe3, [0x3b0]],
  [0xa64b, [0x1c88]],
  [0xfb05, [0xfb06]],
  [0xfb06, [0xfb05]],
]);

interface Unicode {
  readonly word: Ranges;
  readonly decimal: Ranges;
  readonly digit: Ranges;
  readonly space: Ranges;
  readonly lower: ReadonlyMap<number, number>;
  readonly upper: ReadonlyMap<number, number>;
  /** Code points whose simple lowercase differs from themselves. */
  readonly lowerChanged: Ranges;
  readonly upperChanged: Ranges;
  /** Code points `_sre.unicode_iscased` accepts (lower or upper differs). */
  readonly cased: Ranges;
}

let unicodeData: Unicode | undefined;

export function uni(): Unicode {
  if (unicodeData === undefined) {
    const lower = decodeRuns(T_LOWER);
    const upper = decodeRuns(T_UPPER);
    const lowerChanged = rsPoints(lower.keys());
    const upperChanged = rsPoints(upper.keys());
    unicodeData = {
      word: decodeRanges(T_WORD),
      decimal: decodeRanges(T_DECIMAL),
      digit: decodeRanges(T_DIGIT),
      space: decodeRanges(T_SPACE),
      lower,
      upper,
      lowerChanged,
      upperChanged,
      cased: rsUnion(lowerChanged, upperChanged),
    };
  }
  return unicodeData;
}

export const ASCII_WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
export const ASCII_DIGIT: Ranges = [0x30, 0x39];
export const ASCII_SPACE: Ranges = [0x09, 0x0d, 0x20, 0x20];
export const ASCII_LETTERS: Ranges = [0x41, 0x5a, 0x61, 0x7a];

/** Python `str.isalnum() or c == "_"`: the `\w` of `re` (Unicode 14.0). */
export function pyIsWordChar(cp: number): boolean {
  return rsHas(uni().word, cp);
}
/** Python `str.isspace()` for one code point (the whitespace of `str.split()`/`strip()` and `re`'s `\s`). */
export function pyIsSpace(cp: number): boolean {
  return rsHas(uni().space, cp);
}
/** Python `str.isdecimal()` for one code point (`re`'s `\d`; the digits `int()` accepts). */
export function pyIsDecimal(cp: number): boolean {
  return rsHas(uni().decimal, cp);
}
/** Python `str.isdigit()` for one code point (decimals plus e.g. `²`, `①`). */
export function pyIsDigit(cp: number): boolean {
  return rsHas(uni().digit, cp);
}
/** The value of a decimal digit (`unicodedata.decimal`), or -1 when `cp` is not one. */
export function pyDecimalValue(cp: number): number {
  const d = uni().decimal;
  let lo = 0;
  let hi = (d.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < d[2 * mid]!) hi = mid - 1;
    else if (cp > d[2 * mid + 1]!) lo = mid + 1;
    // every run of decimal digits starts at a zero and spans whole decades
    else return (cp - d[2 * mid]!) % 10;
  }
  return -1;
}

export const pyLowerCp = (cp: number): number => uni().lower.get(cp) ?? cp;
export const pyUpperCp = (cp: number): number => uni().upper.get(cp) ?? cp;
export const asciiLowerCp = (cp: number): number => (cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp);
export const isCasedUnicode = (cp: number): boolean => uni().lower.has(cp) || uni().upper.has(cp);
export const isCasedAscii = (cp: number): boolean => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

const inverses = new WeakMap<Ranges, Map<number, number[]>>();

/** For the code points in `changed`, lower(c) → [c, ...]; built once per case mapping. */
function inverseOf(map: (cp: number) => number, changed: Ranges): Map<number, number[]> {
  let inv = inverses.get(changed);
  if (inv === undefined) {
    inv = new Map();
    for (const c of rsEach(changed)) {
      const l = map(c);
      const list = inv.get(l);
      if (list === undefined) inv.set(l, [c]);
      else list.push(c);
    }
    inverses.set(changed, inv);
  }
  return inv;
}

/** {c : lower(c) ∈ p}, with `changed` the code points that lower() moves. */
export function preimage(p: Ranges, map: (cp: number) => number, changed: Ranges): Ranges {
  let size = 0;
  for (let i = 0; i < p.length; i += 2) size += p[i + 1]! - p[i]! + 1;
  const extra: number[] = [];
  if (size <= 64) {
    // a few code points (literals): look their pre-images up
    const inv = inverseOf(map, changed);
    for (const x of rsEach(p)) for (const c of inv.get(x) ?? []) extra.push(c);
  } else {
    for (const c of rsEach(changed)) if (rsHas(p, map(c))) extra.push(c);
  }
  return rsUnion(rsMinus(p, changed), rsPoints(extra));
}
