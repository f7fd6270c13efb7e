// LibTorch's CUDA part behind librookery_cuda.so (model/cuda_backend): a CPU-only run maps none
// of it, and the module, where this build has one, loads with every library it needs.
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <QtTest/QtTest>

#include "model/compute_device.hpp"
#include "model/cuda_backend.hpp"
#include "model/cuda_backend_abi.h"

using namespace rookery;

namespace {

// Libraries that only a GPU run may map: the driver, LibTorch's CUDA part and CUDA's math.
// (libcudart and libcupti are not among them: libtorch_cpu names them as needed, and they load
// no driver until called.)
const char* const kGpuLibraries[] = {"libcuda.so", "libtorch_cuda", "libc10_cuda", "libcublas",
                                     "libcudnn", "libnccl", "libcusparse", "libcufft",
                                     "librookery_cuda"};

QStringList gpu_libraries_mapped() {
  QStringList found;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    for (const char* lib : kGpuLibraries) {
      if (line.find(lib) != std::string::npos && !found.contains(lib)) found << lib;
    }
  }
  return found;
}

bool driver_installed() {
  void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (h) return true;
  h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (h) dlclose(h);
  return h != nullptr;
}

}  // namespace

class TestCudaBackend : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // --device cpu: nothing of CUDA is even looked for.
  void cpuChoiceLoadsNoGpuLibrary() {
    const auto d = model::detect_compute_device(/*consider_cuda=*/false);
    QCOMPARE(QString::fromStdString(d.device), QStringLiteral("cpu"));
    QVERIFY(!d.cuda_available);
    QVERIFY2(gpu_libraries_mapped().isEmpty(), qPrintable(gpu_libraries_mapped().join(", ")));
    QVERIFY(QString::fromStdString(model::math_library("cpu")).contains("LibTorch 2.11.0"));
  }

  // --device auto on a PC without an NVIDIA driver: the CPU, a reason, and still no GPU library.
  void autoWithoutDriverStaysOnTheCpu() {
    if (driver_installed()) QSKIP("this machine has an NVIDIA driver");
    const auto d = model::detect_compute_device(/*consider_cuda=*/true);
    QCOMPARE(QString::fromStdString(d.device), QStringLiteral("cpu"));
    QVERIFY(QString::fromStdString(d.no_cuda_why).contains("no NVIDIA driver"));
    QVERIFY2(gpu_libraries_mapped().isEmpty(), qPrintable(gpu_libraries_mapped().join(", ")));
  }

  // The module links: loaded in a child process (its registrations cannot be undone), it finds
  // libtorch_cuda, cuBLAS, cuDNN..., speaks this version's interface, and counts the GPUs (none
  // here, with the CUDA runtime's reason).
  void moduleLoadsWithEverythingItNeeds() {
#ifndef ROOKERY_CUDA_BACKEND_BUILD_PATH
    QSKIP("built without the CUDA part (ROOKERY_CUDA=OFF, or no CUDA toolkit)");
#else
    // The module a node would load: $ROOKERY_CUDA_BACKEND (a GPU bundle sets it), else this build's.
    const char* env = std::getenv("ROOKERY_CUDA_BACKEND");
    const char* path = env && *env ? env : ROOKERY_CUDA_BACKEND_BUILD_PATH;
    QVERIFY2(QFileInfo::exists(path), path);
    int pipe_fds[2];
    QCOMPARE(pipe(pipe_fds), 0);
    const pid_t pid = fork();
    if (pid == 0) {
      close(pipe_fds[0]);
      std::string report;
      void* h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
      if (!h) {
        report = std::string("dlopen: ") + dlerror();
      } else {
        auto abi = reinterpret_cast<int (*)()>(dlsym(h, "rookery_cuda_abi_version"));
        auto count = reinterpret_cast<int (*)(char*, size_t)>(dlsym(h, "rookery_cuda_device_count"));
        if (!abi || !count) {
          report = "missing symbols";
        } else {
          char why[512] = {0};
          const int n = count(why, sizeof why);
          report = "abi " + std::to_string(abi()) + " devices " + std::to_string(n) + " why " + why;
        }
      }
      (void)!write(pipe_fds[1], report.data(), report.size());
      _exit(0);
    }
    close(pipe_fds[1]);
    std::string report;
    char buf[1024];
    ssize_t n;
    while ((n = read(pipe_fds[0], buf, sizeof buf)) > 0) report.append(buf, std::size_t(n));
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    qInfo("module: %s", report.c_str());
    QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, report.c_str());
    QVERIFY2(QString::fromStdString(report).startsWith(
                 QString("abi %1 devices ").arg(ROOKERY_CUDA_ABI_VERSION)),
             report.c_str());
    if (!driver_installed()) {
      QVERIFY2(report.find("devices 0 why ") != std::string::npos && report.size() > 20,
               report.c_str());
    }
#endif
  }
};

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "test_cuda_backend.moc"
