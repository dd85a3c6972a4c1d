#pragma once
// The peer of pk::mpi::gemm: ScaLAPACK's p?gemm (Debian's libscalapack-openmpi-dev, BLACS inside),
// declared here from its documented Fortran/C interface (ScaLAPACK ships no C header for it).
extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int context);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* context, const int* lld, int* info);
void psgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
             const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
             const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
             const int* descc);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}
