// Structs (nested, with arrays) passed by pointer, and copied by value.
typedef struct {
  float x, y, z;
} vec3_t;

typedef struct {
  vec3_t pos;
  vec3_t vel;
  int id;
  uchar flags[4];
} particle_t;

typedef struct {
  float dt;
  float damping;
  vec3_t gravity;
} params_t;

static void integrate(global particle_t *p, constant params_t *prm) {
  p->vel.x = (p->vel.x + prm->gravity.x * prm->dt) * prm->damping;
  p->vel.y = (p->vel.y + prm->gravity.y * prm->dt) * prm->damping;
  p->vel.z = (p->vel.z + prm->gravity.z * prm->dt) * prm->damping;
  p->pos.x += p->vel.x * prm->dt;
  p->pos.y += p->vel.y * prm->dt;
  p->pos.z += p->vel.z * prm->dt;
}

kernel void struct_pointer(global particle_t *particles, constant params_t *prm,
                           global vec3_t *centroid) {
  size_t i = get_global_id(0);
  global particle_t *p = &particles[i];
  if (p->flags[0])
    integrate(p, prm);
  particle_t copy = *p;
  copy.id += 1;
  copy.flags[3] = (uchar)(copy.id & 0xff);
  particles[i] = copy;
  if (i == 0)
    *centroid = copy.pos;
}
