#pragma once
// The dashboard's page (resources/dashboard), compiled into the library by embed_page.cmake.
#include <span>
#include <string_view>

namespace rookery::dashboard {

struct PageFile {
  std::string_view name;  // "index.html", "dashboard.js", "dashboard.css", "rookery.svg"
  std::string_view body;
};

std::span<const PageFile> page_files();

}  // namespace rookery::dashboard
