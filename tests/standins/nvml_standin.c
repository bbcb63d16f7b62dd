/*
 * A stand-in for the NVIDIA driver's user-space libraries, for machines without a GPU.
 *
 * Built as one shared object and installed (by tests/standins/__init__.py) under the names
 * libnvidia-ml.so.1 and libcuda.so.1, it answers the NVML entry points the real `pynvml` calls and
 * the driver API's cuDriverGetVersion, with values read from the profile file named by
 * $GC_WIZARD_STANDIN_PROFILE (key=value lines; see tests/standins/profiles/). It returns the real
 * NVML error codes, so pynvml raises the same exceptions it raises on a broken server:
 *
 *   nvml=ok                 answer from the profile
 *   nvml=driver_not_loaded  nvmlInit* -> NVML_ERROR_DRIVER_NOT_LOADED (9)
 *   nvml=version_mismatch   nvmlInit* -> NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)
 *   nvml=hang               nvmlInit* sleeps for an hour (a wedged GPU), for timeout tests
 *   libcuda=not_loaded      cuDriverGetVersion still answers; cuInit -> CUDA_ERROR_NO_DEVICE (100)
 *
 * Signatures follow nvml.h / cuda.h; handles are pointers into a static table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_LIB_RM_VERSION_MISMATCH 18
#define NVML_ERROR_UNKNOWN 999

#define MAX_GPUS 16

typedef struct {
    char name[96];
    char uuid[96];
    unsigned long long memory_mib;
    int cc_major, cc_minor;
    unsigned index;
} standin_gpu;

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
    unsigned int version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;

static int loaded = 0;
static int initialized = 0;
static char nvml_mode[64] = "ok";
static char libcuda_mode[64] = "ok";
static char driver_version[80] = "";
static int cuda_version = 0;
static unsigned gpu_count = 0;
static standin_gpu gpus[MAX_GPUS];

static void trim(char *s) {
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) s[--n] = '\0';
}

static void load_profile(void) {
    if (loaded) return;
    loaded = 1;
    const char *path = getenv("GC_WIZARD_STANDIN_PROFILE");
    if (!path) { strcpy(nvml_mode, "no_profile"); return; }
    FILE *f = fopen(path, "r");
    if (!f) { strcpy(nvml_mode, "no_profile"); return; }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        trim(line);
        if (line[0] == '#' || line[0] == '\0') continue;
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        const char *key = line, *value = eq + 1;
        unsigned idx;
        char field[64];
        if (!strcmp(key, "nvml")) snprintf(nvml_mode, sizeof nvml_mode, "%s", value);
        else if (!strcmp(key, "libcuda")) snprintf(libcuda_mode, sizeof libcuda_mode, "%s", value);
        else if (!strcmp(key, "driver_version")) snprintf(driver_version, sizeof driver_version, "%s", value);
        else if (!strcmp(key, "cuda_version")) cuda_version = atoi(value);
        else if (!strcmp(key, "gpu_count")) { gpu_count = (unsigned)atoi(value); if (gpu_count > MAX_GPUS) gpu_count = MAX_GPUS; }
        else if (sscanf(key, "gpu%u.%63s", &idx, field) == 2 && idx < MAX_GPUS) {
            standin_gpu *g = &gpus[idx];
            g->index = idx;
            if (!strcmp(field, "name")) snprintf(g->name, sizeof g->name, "%s", value);
            else if (!strcmp(field, "uuid")) snprintf(g->uuid, sizeof g->uuid, "%s", value);
            else if (!strcmp(field, "memory_mib")) g->memory_mib = strtoull(value, NULL, 10);
            else if (!strcmp(field, "cc")) sscanf(value, "%d.%d", &g->cc_major, &g->cc_minor);
        }
    }
    fclose(f);
}

static int copy_out(char *buf, unsigned len, const char *value) {
    if (!buf) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(value) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(buf, value);
    return NVML_SUCCESS;
}

/* ---- NVML ---- */

int nvmlInitWithFlags(unsigned int flags) {
    (void)flags;
    load_profile();
    if (!strcmp(nvml_mode, "driver_not_loaded")) return NVML_ERROR_DRIVER_NOT_LOADED;
    if (!strcmp(nvml_mode, "version_mismatch")) return NVML_ERROR_LIB_RM_VERSION_MISMATCH;
    if (!strcmp(nvml_mode, "hang")) { sleep(3600); return NVML_ERROR_UNKNOWN; }
    if (strcmp(nvml_mode, "ok")) return NVML_ERROR_UNKNOWN;
    initialized = 1;
    return NVML_SUCCESS;
}
int nvmlInit_v2(void) { return nvmlInitWithFlags(0); }
int nvmlInit(void) { return nvmlInitWithFlags(0); }

int nvmlShutdown(void) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    initialized = 0;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(int result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
    }
}

int nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    return copy_out(version, length, driver_version);
}

int nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    char text[96];
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    snprintf(text, sizeof text, "%d.%s", cuda_version / 1000, driver_version);
    return copy_out(version, length, text);
}

int nvmlSystemGetCudaDriverVersion(int *v) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!v) return NVML_ERROR_INVALID_ARGUMENT;
    *v = cuda_version;
    return NVML_SUCCESS;
}
int nvmlSystemGetCudaDriverVersion_v2(int *v) { return nvmlSystemGetCudaDriverVersion(v); }

int nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!count) return NVML_ERROR_INVALID_ARGUMENT;
    *count = gpu_count;
    return NVML_SUCCESS;
}
int nvmlDeviceGetCount(unsigned int *count) { return nvmlDeviceGetCount_v2(count); }

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, standin_gpu **device) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device || index >= gpu_count) return NVML_ERROR_INVALID_ARGUMENT;
    *device = &gpus[index];
    return NVML_SUCCESS;
}
int nvmlDeviceGetHandleByIndex(unsigned int index, standin_gpu **device) {
    return nvmlDeviceGetHandleByIndex_v2(index, device);
}

int nvmlDeviceGetIndex(standin_gpu *device, unsigned int *index) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device || !index) return NVML_ERROR_INVALID_ARGUMENT;
    *index = device->index;
    return NVML_SUCCESS;
}

int nvmlDeviceGetName(standin_gpu *device, char *name, unsigned int length) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device) return NVML_ERROR_INVALID_ARGUMENT;
    return copy_out(name, length, device->name);
}

int nvmlDeviceGetUUID(standin_gpu *device, char *uuid, unsigned int length) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device) return NVML_ERROR_INVALID_ARGUMENT;
    return copy_out(uuid, length, device->uuid);
}

int nvmlDeviceGetMemoryInfo(standin_gpu *device, nvmlMemory_t *memory) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device || !memory) return NVML_ERROR_INVALID_ARGUMENT;
    memory->total = device->memory_mib * 1024ULL * 1024ULL;
    memory->used = 4ULL * 1024ULL * 1024ULL;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

int nvmlDeviceGetMemoryInfo_v2(standin_gpu *device, nvmlMemory_v2_t *memory) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device || !memory) return NVML_ERROR_INVALID_ARGUMENT;
    memory->total = device->memory_mib * 1024ULL * 1024ULL;
    memory->reserved = 0;
    memory->used = 4ULL * 1024ULL * 1024ULL;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

int nvmlDeviceGetCudaComputeCapability(standin_gpu *device, int *major, int *minor) {
    if (!initialized) return NVML_ERROR_UNINITIALIZED;
    if (!device || !major || !minor) return NVML_ERROR_INVALID_ARGUMENT;
    *major = device->cc_major;
    *minor = device->cc_minor;
    return NVML_SUCCESS;
}

/* ---- CUDA driver API (libcuda.so.1) ---- */

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NO_DEVICE 100

int cuDriverGetVersion(int *v) {
    load_profile();
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = cuda_version;
    return CUDA_SUCCESS;
}

int cuInit(unsigned int flags) {
    (void)flags;
    load_profile();
    if (!strcmp(libcuda_mode, "not_loaded") || gpu_count == 0) return CUDA_ERROR_NO_DEVICE;
    return CUDA_SUCCESS;
}
